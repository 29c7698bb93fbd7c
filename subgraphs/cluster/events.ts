/** Every event the cluster domain publishes; each belongs to the member's stream (aggregate: member id). */
export const CLUSTER_EVENTS = { tierChanged: 'customer.tier_changed', badgeCompleted: 'badge.completed' } as const;
