import { Entity, OptionalProps, Property } from '@mikro-orm/core';
import { Field, Float, ObjectType } from 'type-graphql';
import { DescribedCatalogEntity } from '../../../core/catalog/catalog-entity';

/**
 * How many points a shop's purchases earn: `conversionRate` points per currency unit. The default
 * rule (no shop, `isFixed` true, seeded by the migration) applies to shops without a live rule of
 * their own; it cannot be deleted. Soft-deleted rules stay in the table for the verifications that
 * used them. The rate is numeric in the database and a decimal string here.
 */
@ObjectType()
@Entity({ tableName: 'point_shop_rule' })
export class PointShopRule extends DescribedCatalogEntity {
  [OptionalProps]?:
    | 'shopId'
    | 'name_th'
    | 'name_cn'
    | 'description_en'
    | 'description_th'
    | 'description_cn'
    | 'isFixed'
    | 'isActive'
    | 'createdAt'
    | 'updatedAt'
    | 'deletedAt';

  @Field(() => String, { nullable: true, description: 'null for the default rule' }) @Property({ type: 'text', nullable: true }) shopId: string | null = null;
  @Field(() => Float, { description: 'Points per currency unit' }) @Property({ type: 'decimal' }) conversionRate: string;
  @Field({ description: 'true only for the default rule' }) @Property() isFixed: boolean = false;
  @Field() @Property() isActive: boolean = true;
}
