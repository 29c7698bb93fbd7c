import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';

/** A named set of permissions granted to staff and API keys (`*` grants everything). */
@ObjectType()
@Entity({ tableName: 'role' })
export class Role {
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string;

  /** Stable machine name: admin, marketing, tenant, customer. */
  @Field()
  @Property({ unique: true })
  key: string;

  @Field(() => String, { nullable: true }) @Property() name_en: string | null;
  @Field(() => String, { nullable: true }) @Property({ nullable: true }) name_th: string | null;
  @Field(() => String, { nullable: true }) @Property({ nullable: true }) name_cn: string | null;

  @Field(() => [String])
  @Property({ type: 'text[]' })
  permissions: string[];

  @Field() @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field() @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}
