import { Entity, Enum, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

export const RedemptionState = graphqlEnum('RewardRedemptionState', ['PENDING', 'COMPLETED', 'FAILED'], 'PENDING until its points are spent and its code issued (COMPLETED), or until it is refused and its unit of stock given back (FAILED)');
export type RedemptionState = EnumValue<typeof RedemptionState>;

/**
 * One redemption of a reward catalog by a member (services/redemption.service.ts): a saga over the
 * reward's stock and codes (this schema) and the member's points (the point domain). PENDING holds a
 * unit of stock (when the reward's stock is LIMITED) while the points are spent; COMPLETED has spent
 * them and issued its one code; FAILED was refused by the point domain and gave the unit back. The
 * member's `idempotencyKey` names one redemption: a repeat gets its outcome.
 */
@Entity({ tableName: 'redemption' })
export class Redemption {
  [OptionalProps]?: 'quantity' | 'state' | 'pointTransactionId' | 'failureCode' | 'failureMessage' | 'completedAt' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) memberId: string;
  @Property({ type: 'uuid' }) rewardCatalogId: string;
  @Property({ type: 'uuid' }) rewardId: string;
  /** The catalog's price when the redemption began, a decimal string. */
  @Property({ type: 'decimal' }) pointUsage: string;
  @Property({ type: 'text' }) idempotencyKey: string;
  /** Units redeemed at once: as many units of stock and codes, `quantity` × `pointUsage` points in one spend. */
  @Property() quantity: number = 1;
  @Enum({ items: () => RedemptionState }) state: RedemptionState = RedemptionState.PENDING;
  /** Whether a unit of LIMITED stock was taken (and is given back if the redemption fails). */
  @Property() stockTaken: boolean;
  /** The point domain's SPEND entry; null for a free catalog (nothing to spend). */
  @Property({ type: 'uuid', nullable: true }) pointTransactionId: string | null = null;
  /** Why a FAILED redemption was refused: a RedeemRefusal code and its message. */
  @Property({ type: 'text', nullable: true }) failureCode: string | null = null;
  @Property({ type: 'text', nullable: true }) failureMessage: string | null = null;
  @Property({ type: 'timestamptz', nullable: true }) completedAt: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}
