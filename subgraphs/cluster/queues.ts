/** The cluster's job queues: three consumers of other domains' events and the tier expiry job. */
export const CLUSTER_QUEUES = {
  points: 'cluster.points',
  badges: 'cluster.badges',
  members: 'cluster.members',
  /** New customers placed in the entry tier (auth customer.created). */
  customers: 'cluster.customers',
  tierExpiry: 'cluster.tier-expiry',
} as const;
