/** Every event the point domain publishes; each belongs to the member's stream (aggregate: member id). */
export const POINT_EVENTS = { earned: 'points.earned', redeemed: 'points.redeemed', expired: 'points.expired' } as const;
