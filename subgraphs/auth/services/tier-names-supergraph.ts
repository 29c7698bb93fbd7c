import { AccessTokens } from '../../../core/auth/jwt';
import { ServiceIdentity } from '../../../core/auth/service-identity';
import { OperationExecutor } from '../../../core/graphql-http';
import { isRecordId } from '../../../core/ids';
import { SupergraphClient } from '../../../core/supergraph-client';
import { AUTH_SERVICE_PRINCIPAL } from './mail-templates-supergraph';

/** The document auth runs on the gateway for the member list's tier filter (validated by `npm run schema:check`). */
export const TIER_NAME_OPERATIONS = {
  TierFilter: `query TierFilter($search: String, $byName: Boolean!) {
    tiers(search: $search, includeInActive: true, page: 1, limit: 100) @include(if: $byName) { data { id name_en name_th name_cn } }
    entryTier { id } }`,
};

/** How long a filtered list waits for the cluster's answer. */
const TIER_FILTER_TIMEOUT_MS = 3000;

/** The tiers a `filter[tier]` names, and whether the entry tier is one of them (members promised it match too). */
export interface TierFilter {
  tierIds: string[];
  entryTier: boolean;
}

/** Reads the cluster's tiers for `filter[tier]` (a failure is the caller's 503: a filter never silently drops). */
export class TierNames {
  private readonly client: SupergraphClient;

  constructor(tokens: AccessTokens, gateway: OperationExecutor) {
    this.client = new SupergraphClient(gateway, new ServiceIdentity(tokens, AUTH_SERVICE_PRINCIPAL), TIER_FILTER_TIMEOUT_MS);
  }

  /** An id as given, a name as the ids of the tiers (active or not) with exactly this name in some language, case ignored. */
  async filterOf(tier: string): Promise<TierFilter> {
    type Named = { id: string; name_en: string | null; name_th: string | null; name_cn: string | null };
    const byName = !isRecordId(tier);
    const answer = await this.client.run<{ tiers?: { data: Named[] }; entryTier: { id: string } | null }>(TIER_NAME_OPERATIONS.TierFilter, { search: byName ? tier : null, byName });
    const wanted = tier.trim().toLowerCase();
    const tierIds = byName
      ? (answer.tiers?.data ?? []).filter((named) => [named.name_en, named.name_th, named.name_cn].some((value) => value?.trim().toLowerCase() === wanted)).map((named) => named.id)
      : [tier];
    return { tierIds, entryTier: answer.entryTier != null && tierIds.includes(answer.entryTier.id) };
  }
}
