import { snakeCase, toV1, v1Time } from '../../../core/rest/case';
import { PublicEvent, PublicEventLookup } from '../../../core/rest/surface';
import { AUTH, CustomerCreated, customerCreatedOf, CustomerDeleted, customerDeletedOf, CustomerUpdated, LegacyCustomerCreated, LegacyCustomerDeleted, LegacyCustomerUpdated } from '../contract';

/** The cluster's entry tier, by name, for a customer created in it (the cluster is who knows). */
const ENTRY_TIER = `query PublicEventEntryTier { entryTier { name_en name_th name_cn } }`;
type TierName = { name_en: string | null; name_th: string | null; name_cn: string | null };

async function entryTierName(lookup: PublicEventLookup): Promise<string | null> {
  const { entryTier } = await lookup<{ entryTier: TierName | null }>(ENTRY_TIER);
  return entryTier ? (entryTier.name_en ?? entryTier.name_th ?? entryTier.name_cn) : null;
}

/** Part 3's `customer.created`: the customer with the name of the tier it starts in (null: none) and no points yet. */
async function customerCreatedData(payload: CustomerCreated | LegacyCustomerCreated, lookup: PublicEventLookup) {
  // Written in Part 3's shape before the event carried auth's vocabulary: sent as it was.
  if ('customer' in payload) return toV1(payload) as Record<string, unknown>;
  const created = customerCreatedOf(payload);
  const tier = created.startsInEntryTier ? await entryTierName(lookup) : null;
  return { customer: { id: created.memberId, name: created.name, email: created.email, phone: created.phone, tier, points_balance: 0, created_at: v1Time(created.createdAt) } };
}

/** Part 3's `customer.updated`: the v1 profile and the v1 names of the fields that changed. */
const customerUpdatedData = ({ customer, changed }: CustomerUpdated | LegacyCustomerUpdated) => ({ customer: toV1(customer), changed: changed.map(snakeCase) });

/** Part 3's `customer.deleted`. */
const customerDeletedData = (payload: CustomerDeleted | LegacyCustomerDeleted) => {
  const deleted = customerDeletedOf(payload);
  return { customer_id: deleted.memberId, deleted_at: v1Time(deleted.deletedAt) };
};

/** The auth domain's events as Part 3 webhook events. */
export const AUTH_PUBLIC_EVENTS: PublicEvent[] = [
  { internal: AUTH.events.customerCreated, type: 'customer.created', data: customerCreatedData },
  { internal: AUTH.events.customerUpdated, type: 'customer.updated', data: customerUpdatedData },
  { internal: AUTH.events.customerDeleted, type: 'customer.deleted', data: customerDeletedData },
];
