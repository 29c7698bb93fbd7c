import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';

/** Something a member may say it is interested in; staff-managed, soft-deleted. */
@ObjectType()
@Entity({ tableName: 'interest_category' })
export class InterestCategory {
  [OptionalProps]?: 'name_th' | 'name_cn' | 'createdAt' | 'updatedAt' | 'deletedAt';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field(() => String, { nullable: true }) @Property({ length: 256 }) name_en: string | null;
  @Field(() => String, { nullable: true }) @Property({ length: 256, nullable: true }) name_th: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ length: 256, nullable: true }) name_cn: string | null = null;
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
  @Field(() => GraphQLISODateTime, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
}

export const INTEREST_LOCALIZED = ['name'];
