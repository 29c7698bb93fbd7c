import { Route, V1_BASE } from '../../../core/rest/route';
import { ref } from '../../../core/rest/json-schema';
import { tierOf } from './v1-tiers';

const TIER_FIELDS = 'id level name_en name_th name_cn requirement { purchaseAmountHit } benefit { name_en name_th name_cn }';

/** Spec Part 3, loyalty: tiers (anyone with `read`, customers too: `customer: 'self'`, as they name no customer). */
export const V1_TIER_ROUTES: Route[] = [
  {
    method: 'get',
    path: `${V1_BASE}/tiers`,
    document: `query V1Tiers($page: Int, $limit: Int) { tiers(page: $page, limit: $limit) { meta { page limit total } data { ${TIER_FIELDS} } } }`,
    envelope: 'v1List',
    doc: { summary: 'Membership tiers', response: ref('Tier') },
    customer: 'self',
    payload: ({ tiers }) => ({ ...tiers, data: tiers.data.map(tierOf) }),
  },
  {
    method: 'get',
    path: `${V1_BASE}/tiers/:id`,
    document: `query V1Tier($id: ID!) { tier(id: $id) { ${TIER_FIELDS} } }`,
    envelope: 'v1',
    doc: { summary: 'One tier', response: ref('Tier') },
    customer: 'self',
    notFound: 'TIER_NOT_FOUND',
    variables: ({ params }) => ({ id: params.id }),
    payload: ({ tier }) => tierOf(tier),
  },
];
