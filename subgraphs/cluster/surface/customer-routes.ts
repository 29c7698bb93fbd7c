import { validationError } from '../../../core/errors';
import { isRecordId } from '../../../core/ids';
import { CUSTOMER_FIELDS, customerOf } from '../../../core/rest/customer';
import { notFoundByField } from '../../../core/rest/failures';
import { arrayOf, ref } from '../../../core/rest/json-schema';
import { Route, V1_BASE } from '../../../core/rest/route';

const BASE = `${V1_BASE}/customers`;

/** A segment of the cluster service as v1 shows it: `manual` (picked by staff) or `ai` (computed by the platform: our rule segments). */
export const segmentOf = (segment: { id: string; name_en: string | null; name_th: string | null; name_cn: string | null; type: string }) => ({
  id: segment.id,
  name: segment.name_en ?? segment.name_th ?? segment.name_cn,
  type: segment.type === 'manual' ? 'manual' : 'ai',
});

/** Spec Part 3, a customer's tier change and segments: the cluster's answers about a customer. */
export const CUSTOMER_TIER_AND_SEGMENT_ROUTES: Route[] = [
  {
    // Both variants of Part 3: `tier` (a name, customers table) or `tier_id` (loyalty table); staff only.
    method: 'patch',
    path: `${BASE}/:id/tier`,
    document: `mutation V1ChangeCustomerTier($id: ID!, $input: ChangeCustomerTierInput!) {
      changeCustomerTier(id: $id, input: $input) { member { ${CUSTOMER_FIELDS} } } }`,
    envelope: 'v1',
    doc: { summary: 'Change a customer\'s tier by name (`tier`) or id (`tier_id`), with the `reason` kept in its history', response: ref('Customer') },
    notFound: 'CUSTOMER_NOT_FOUND',
    v1Failure: notFoundByField({ tier: 'TIER_NOT_FOUND', tierId: 'TIER_NOT_FOUND' }),
    payload: ({ changeCustomerTier }) => customerOf(changeCustomerTier.member, new Set(['tier'])),
  },
  {
    // Staff and keys with segment:read; a customer its own (contract section 2: `/customers/{own id}/...`).
    method: 'get',
    path: `${BASE}/:id/segments`,
    document: 'query V1CustomerSegments($id: ID!) { member(id: $id) { id } memberSegments(memberId: $id) { id name_en name_th name_cn type } }',
    envelope: 'v1',
    customer: { param: 'id' },
    doc: { summary: 'The segments a customer belongs to', response: arrayOf(ref('Segment')) },
    notFound: 'CUSTOMER_NOT_FOUND',
    variables: ({ params }) => {
      // Checked here: the segment query would name its own argument, not the path's id.
      if (!isRecordId(params.id)) throw validationError([{ field: 'id', message: 'id is not a customer id' }]);
      return { id: params.id };
    },
    payload: ({ memberSegments }) => memberSegments.map(segmentOf),
  },
];
