import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';

/** A membership tier: localized names, a level, what it takes to reach it and what it gives. */
@ObjectType()
@Entity({ tableName: 'tier' })
export class Tier {
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

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field(() => String, { nullable: true }) @Property({ length: 256 }) name_en: string | null;
  @Field(() => String, { nullable: true }) @Property({ length: 256, nullable: true }) name_th: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ length: 256, nullable: true }) name_cn: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text' }) description_en: string | null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) description_th: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) description_cn: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) imageUrl: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) background: string | null = null;
  @Field(() => Int) @Property() level: number = 0;
  @Field(() => GraphQLJSON, { description: '{ purchaseAmountHit?: number }' }) @Property({ type: 'jsonb' }) requirement: Record<string, unknown> = {};
  @Field(() => GraphQLJSON, { description: 'Benefits: [{ name_*, description_*, condition_*, type, imageUrl }]' })
  @Property({ type: 'jsonb' })
  benefit: Array<Record<string, unknown>> = [];
  @Field() @Property() isActive: boolean = true;
  @Field() @Property() isSpecial: boolean = false;
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
  @Field(() => GraphQLISODateTime, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
}
