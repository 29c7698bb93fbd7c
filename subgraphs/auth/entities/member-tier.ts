import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A member's current tier id as auth knows it: a projection of the cluster's `customer.tier_changed`
 * events (services/member-tier-projection.ts), read by the member list's tier filter. Not in GraphQL.
 */
@Entity({ tableName: 'member_tier' })
export class MemberTier {
  @PrimaryKey({ type: 'uuid' }) memberId: string;
  @Property({ type: 'text' }) tierId: string;
  @Property({ type: 'timestamptz' }) changedAt: Date;
}
