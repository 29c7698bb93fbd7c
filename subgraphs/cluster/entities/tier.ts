import { Entity, OptionalProps, Property } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { DescribedCatalogEntity } from '../../../core/catalog/catalog-entity';

/** What it takes to reach a tier (stored as jsonb). */
@ObjectType()
export class TierRequirement {
  @Field(() => Float, { nullable: true, description: 'Cumulative purchase amount that reaches the tier' }) purchaseAmountHit?: number | null;
}

/** One benefit of a tier (stored as jsonb); its texts follow the `locale` projection like the tier's. */
@ObjectType()
export class TierBenefit {
  @Field(() => String, { nullable: true }) name_en?: string | null;
  @Field(() => String, { nullable: true }) name_th?: string | null;
  @Field(() => String, { nullable: true }) name_cn?: string | null;
  @Field(() => String, { nullable: true }) description_en?: string | null;
  @Field(() => String, { nullable: true }) description_th?: string | null;
  @Field(() => String, { nullable: true }) description_cn?: string | null;
  @Field(() => String, { nullable: true }) condition_en?: string | null;
  @Field(() => String, { nullable: true }) condition_th?: string | null;
  @Field(() => String, { nullable: true }) condition_cn?: string | null;
  @Field(() => String, { nullable: true }) type?: string | null;
  @Field(() => String, { nullable: true }) imageUrl?: string | null;
}

/** A membership tier: localized names, a level, what it takes to reach it and what it gives. */
@ObjectType()
@Entity({ tableName: 'tier' })
export class Tier extends DescribedCatalogEntity {
  [OptionalProps]?:
    | 'name_th'
    | 'name_cn'
    | 'description_th'
    | 'description_cn'
    | 'imageUrl'
    | 'background'
    | 'level'
    | 'requirement'
    | 'benefit'
    | 'isActive'
    | 'isSpecial'
    | 'createdAt'
    | 'updatedAt'
    | 'deletedAt';

  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) imageUrl: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) background: string | null = null;
  @Field(() => Int) @Property() level: number = 0;
  @Field(() => TierRequirement) @Property({ type: 'jsonb' }) requirement: TierRequirement = {};
  @Field(() => [TierBenefit]) @Property({ type: 'jsonb' }) benefit: TierBenefit[] = [];
  @Field() @Property() isActive: boolean = true;
  @Field() @Property() isSpecial: boolean = false;
}

export const BENEFIT_LOCALIZED = ['name', 'description', 'condition'];
