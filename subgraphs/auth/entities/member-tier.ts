import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A member's current tier id as auth knows it: the entry tier a v1 creation promised (written with the
 * member), then each of the cluster's `customer.tier_changed` events (services/member-tier-projection.ts).
 * Read by the member list's tier filter, and by the cluster's `Member.tier` for a member it has not
 * placed yet (`Member.projectedTierId`, @inaccessible: not in the API schema).
 */
@Entity({ tableName: 'member_tier' })
export class MemberTier {
  @PrimaryKey({ type: 'uuid' }) memberId: string;
  @Property({ type: 'text' }) tierId: string;
  @Property({ type: 'timestamptz' }) changedAt: Date;
}
