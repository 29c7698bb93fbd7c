import { v1Time } from '../../../core/rest/case';
import { PublicEvent } from '../../../core/rest/surface';
import { CLUSTER, CustomerTierChanged } from '../contract';

/** The cluster domain's events as Part 3 webhook events. */
export const CLUSTER_PUBLIC_EVENTS: PublicEvent[] = [
  {
    internal: CLUSTER.events.tierChanged,
    type: 'customer.tier_changed',
    data: (event: CustomerTierChanged) => ({
      customer_id: event.memberId,
      from_tier_id: event.fromTierId,
      to_tier_id: event.toTierId,
      change_type: event.changeType,
      source: event.source,
      tier_end_at: v1Time(event.tierEndAt),
    }),
  },
];
