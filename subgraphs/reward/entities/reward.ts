import { Entity, Enum, OptionalProps, Property } from '@mikro-orm/core';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { DescribedCatalogEntity } from '../../../core/catalog/catalog-entity';
import { TextArrayType } from '../../../core/db/text-array-type';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';
import { RewardStats } from './reward-stats';
import { RewardWindow, windowOf } from './reward-window';

export const RewardType = graphqlEnum('RewardType', ['VOUCHER', 'POINT', 'PRODUCT', 'OTHER']);
export type RewardType = EnumValue<typeof RewardType>;

export const DiscountType = graphqlEnum('DiscountType', ['PERCENTAGE', 'AMOUNT']);
export type DiscountType = EnumValue<typeof DiscountType>;

export const StockType = graphqlEnum('StockType', ['LIMITED', 'INFINITE'], 'LIMITED: `stock` runs out; INFINITE: never runs out');
export type StockType = EnumValue<typeof StockType>;

/** When and how a reward may be used. Amounts are decimal strings (numeric columns), numbers in GraphQL. */
@ObjectType()
export class RewardCondition {
  @Field(() => Float, { nullable: true, description: 'Smallest purchase the reward applies to' }) minimumSpend: string | null;
  @Field(() => Int, { nullable: true, description: 'Days a reward code stays usable after it is claimed' }) timeUseWithIn: number | null;
  @Field(() => RewardWindow, { nullable: true }) window: RewardWindow | null;
}

/**
 * A reward (spec Part 1, Reward): a voucher, points, a product or anything else, with its stock.
 * `redeemedCount` is kept by the redemptions, in the transaction that takes their units (a failed one
 * gives them back), `usedCount` by the codes, in the transaction that uses one; both feed `stats`.
 */
@ObjectType()
@Entity({ tableName: 'reward' })
export class Reward extends DescribedCatalogEntity {
  [OptionalProps]?:
    | 'name_th'
    | 'name_cn'
    | 'description_th'
    | 'description_cn'
    | 'discountType'
    | 'benefitValue'
    | 'imageUrl'
    | 'stock'
    | 'stockType'
    | 'rewardCatalogId'
    | 'storeIds'
    | 'minimumSpend'
    | 'timeUseWithIn'
    | 'windowStart'
    | 'windowEnd'
    | 'isActive'
    | 'redeemedCount'
    | 'usedCount'
    | 'createdAt'
    | 'updatedAt'
    | 'deletedAt'
    | 'stockInfinite'
    | 'condition'
    | 'stats';

  @Field(() => RewardType) @Enum({ items: () => RewardType }) type: RewardType;
  @Field(() => DiscountType, { nullable: true }) @Enum({ items: () => DiscountType, nullable: true }) discountType: DiscountType | null = null;
  @Field(() => Float, { nullable: true }) @Property({ type: 'decimal', nullable: true }) benefitValue: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) imageUrl: string | null = null;
  @Field(() => Int, { description: 'Units left; not consulted for INFINITE stock' }) @Property() stock: number = 0;
  @Field(() => StockType) @Enum({ items: () => StockType }) stockType: StockType = StockType.LIMITED;
  @Field(() => ID, { nullable: true }) @Property({ type: 'uuid', nullable: true }) rewardCatalogId: string | null = null;
  @Field(() => [String]) @Property({ type: TextArrayType }) storeIds: string[] = [];
  @Property({ type: 'decimal', nullable: true }) minimumSpend: string | null = null;
  @Property({ nullable: true }) timeUseWithIn: number | null = null;
  @Property({ type: 'timestamptz', nullable: true }) windowStart: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) windowEnd: Date | null = null;
  @Field() @Property() isActive: boolean = true;
  @Property() redeemedCount: number = 0;
  @Property() usedCount: number = 0;

  @Field({ description: 'true when stockType is INFINITE' })
  get stockInfinite(): boolean {
    return this.stockType === StockType.INFINITE;
  }

  @Field(() => RewardCondition)
  get condition(): RewardCondition {
    return { minimumSpend: this.minimumSpend, timeUseWithIn: this.timeUseWithIn, window: windowOf(this.windowStart, this.windowEnd) };
  }

  @Field(() => RewardStats)
  get stats(): RewardStats {
    const remaining = this.stockInfinite ? null : this.stock;
    return { redeemed: this.redeemedCount, used: this.usedCount, remaining, total: remaining === null ? null : remaining + this.redeemedCount };
  }
}

