import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, Float, ID, ObjectType } from 'type-graphql';

/**
 * How many points a shop's purchases earn: `conversionRate` points per currency unit. The default
 * rule (no shop, `isFixed` true, seeded by the migration) applies to shops without a live rule of
 * their own; it cannot be deleted. Soft-deleted rules stay in the table for the verifications that
 * used them. The rate is numeric in the database and a decimal string here.
 */
@ObjectType()
@Entity({ tableName: 'point_shop_rule' })
export class PointShopRule {
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

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field(() => String, { nullable: true, description: 'null for the default rule' }) @Property({ type: 'text', nullable: true }) shopId: string | null = null;
  // Localized fields are nullable in GraphQL: the `locale` projection leaves the other languages null.
  @Field(() => String, { nullable: true }) @Property({ type: 'text' }) name_en: string;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) name_th: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) name_cn: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) description_en: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) description_th: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) description_cn: string | null = null;
  @Field(() => Float, { description: 'Points per currency unit' }) @Property({ type: 'decimal' }) conversionRate: string;
  @Field({ description: 'true only for the default rule' }) @Property() isFixed: boolean = false;
  @Field() @Property() isActive: boolean = true;
  @Field() @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field() @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
}

export const SHOP_RULE_LOCALIZED = ['name', 'description'];
