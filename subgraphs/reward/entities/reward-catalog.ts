import { Entity, Enum, OptionalProps, Property } from '@mikro-orm/core';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { DescribedCatalogEntity } from '../../../core/catalog/catalog-entity';
import { TextArrayType } from '../../../core/db/text-array-type';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';
import { RewardWindow, windowOf } from './reward-window';

export const TierCondition = graphqlEnum('RewardTierCondition', ['INCLUDE', 'EXCLUDE'], 'Whether the tiers of tierRequirement may redeem (INCLUDE) or may not (EXCLUDE)');
export type TierCondition = EnumValue<typeof TierCondition>;

export const RewardCatalogStatus = graphqlEnum(
  'RewardCatalogStatus',
  ['ACTIVE', 'UPCOMING', 'EXPIRED', 'OUT_OF_STOCK'],
  'Derived from the window and the reward\'s stock: EXPIRED past the window, UPCOMING before it, OUT_OF_STOCK within it when the reward has nothing left, ACTIVE otherwise',
);
export type RewardCatalogStatus = EnumValue<typeof RewardCatalogStatus>;

/** What a redemption costs and how often one member may redeem. */
@ObjectType()
export class RedeemRule {
  @Field(() => Float) pointUsage: string;
  @Field(() => Int, { nullable: true, description: 'Redemptions per member; null: no limit' }) limitPerUser: number | null;
}

/** How many redemptions a period allows (`type` `month`: `limitPerPeriod` per `numberInPeriod` months). */
@ObjectType()
export class RewardQuota {
  @Field() type: string;
  @Field(() => Int) numberInPeriod: number;
  @Field(() => Int) limitPerPeriod: number;
}

/**
 * A reward catalog (spec Part 1, Reward catalog): an offer members redeem with points for a reward,
 * with its rule, quota, window and tier condition. Its `status` and `stats` follow the reward's stock
 * (resolvers/reward-catalog.resolver.ts).
 */
@ObjectType()
@Entity({ tableName: 'reward_catalog' })
export class RewardCatalog extends DescribedCatalogEntity {
  [OptionalProps]?:
    | 'name_th'
    | 'name_cn'
    | 'description_th'
    | 'description_cn'
    | 'imageUrl'
    | 'limitPerUser'
    | 'quotaType'
    | 'quotaNumberInPeriod'
    | 'quotaLimitPerPeriod'
    | 'windowStart'
    | 'windowEnd'
    | 'tierCondition'
    | 'tierRequirement'
    | 'isActive'
    | 'redeemedCount'
    | 'usedCount'
    | 'createdAt'
    | 'updatedAt'
    | 'deletedAt'
    | 'redeemRule'
    | 'quota'
    | 'window';

  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) imageUrl: string | null = null;
  @Field(() => ID) @Property({ type: 'uuid' }) rewardId: string;
  @Property({ type: 'decimal' }) pointUsage: string;
  @Property({ nullable: true }) limitPerUser: number | null = null;
  @Property({ type: 'text', nullable: true }) quotaType: string | null = null;
  @Property({ nullable: true }) quotaNumberInPeriod: number | null = null;
  @Property({ nullable: true }) quotaLimitPerPeriod: number | null = null;
  @Property({ type: 'timestamptz', nullable: true }) windowStart: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) windowEnd: Date | null = null;
  @Field(() => TierCondition, { nullable: true }) @Enum({ items: () => TierCondition, nullable: true }) tierCondition: TierCondition | null = null;
  @Field(() => [String], { description: 'Tier ids (plain strings)' }) @Property({ type: TextArrayType }) tierRequirement: string[] = [];
  @Field() @Property() isActive: boolean = true;
  /** Codes handed out and used through this catalog, kept by the reward codes; they feed `stats`. */
  @Property() redeemedCount: number = 0;
  @Property() usedCount: number = 0;

  @Field(() => RedeemRule)
  get redeemRule(): RedeemRule {
    return { pointUsage: this.pointUsage, limitPerUser: this.limitPerUser };
  }

  @Field(() => RewardQuota, { nullable: true })
  get quota(): RewardQuota | null {
    const { quotaType: type, quotaNumberInPeriod: numberInPeriod, quotaLimitPerPeriod: limitPerPeriod } = this;
    return type && numberInPeriod !== null && limitPerPeriod !== null ? { type, numberInPeriod, limitPerPeriod } : null;
  }

  @Field(() => RewardWindow, { nullable: true })
  get window(): RewardWindow | null {
    return windowOf(this.windowStart, this.windowEnd);
  }
}
