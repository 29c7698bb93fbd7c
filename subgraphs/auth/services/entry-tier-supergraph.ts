import { AccessTokens } from '../../../core/auth/jwt';
import { ServiceIdentity } from '../../../core/auth/service-identity';
import { OperationExecutor } from '../../../core/graphql-http';
import { Logger } from '../../../core/logger';
import { SupergraphClient } from '../../../core/supergraph-client';
import { AUTH_SERVICE_PRINCIPAL } from './mail-templates-supergraph';

/** The documents auth runs on the gateway for new customers (validated by `npm run schema:check`). */
export const ENTRY_TIER_OPERATIONS = {
  EntryTier: `query EntryTier { entryTier { id name_en name_th name_cn level } }`,
  TiersNamed: `query TiersNamed($search: String) {
    tiers(search: $search, includeInActive: true, page: 1, limit: 100) { data { id name_en name_th name_cn } } }`,
};

/** The tier a new customer starts in, as the cluster domain names it. */
export interface EntryTierRecord {
  id: string;
  name_en: string | null;
  name_th: string | null;
  name_cn: string | null;
  level: number;
}

/** How long a creation waits for the cluster's answer before announcing the customer without a tier name. */
const ENTRY_TIER_TIMEOUT_MS = 3000;

/**
 * The cluster's entry tier (lowest active tier), read through the supergraph when a member is created:
 * its name goes into `customer.created` and the creation's answer. The cluster places the member itself
 * on receiving the event, so a lookup that fails (null) only leaves the name out.
 */
export class EntryTiers {
  private readonly client: SupergraphClient;

  constructor(tokens: AccessTokens, gateway: OperationExecutor, private readonly logger: Logger) {
    this.client = new SupergraphClient(gateway, new ServiceIdentity(tokens, AUTH_SERVICE_PRINCIPAL), ENTRY_TIER_TIMEOUT_MS);
  }

  async find(): Promise<EntryTierRecord | null> {
    try {
      return (await this.client.run<{ entryTier: EntryTierRecord | null }>(ENTRY_TIER_OPERATIONS.EntryTier, {})).entryTier;
    } catch (error) {
      this.logger.warn({ err: error }, 'entry tier unavailable: customer announced without its tier name');
      return null;
    }
  }
}

/** Reads the cluster's tiers by name, for `filter[tier]` (a failure is the caller's 503: a filter never silently drops). */
export class TierNames {
  private readonly client: SupergraphClient;

  constructor(tokens: AccessTokens, gateway: OperationExecutor) {
    this.client = new SupergraphClient(gateway, new ServiceIdentity(tokens, AUTH_SERVICE_PRINCIPAL), ENTRY_TIER_TIMEOUT_MS);
  }

  /** The ids of the tiers (active or not) with exactly this name in some language, case ignored. */
  async idsNamed(name: string): Promise<string[]> {
    type Named = { id: string; name_en: string | null; name_th: string | null; name_cn: string | null };
    const { tiers } = await this.client.run<{ tiers: { data: Named[] } }>(ENTRY_TIER_OPERATIONS.TiersNamed, { search: name });
    const wanted = name.trim().toLowerCase();
    return tiers.data.filter((tier) => [tier.name_en, tier.name_th, tier.name_cn].some((value) => value?.trim().toLowerCase() === wanted)).map((tier) => tier.id);
  }
}

export const entryTierName = (tier: EntryTierRecord | null): string | null => (tier ? (tier.name_en ?? tier.name_th ?? tier.name_cn) : null);
