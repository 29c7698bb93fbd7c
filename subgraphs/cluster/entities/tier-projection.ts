import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';

/** A member's current tier (one row per member); `tier` and `member` are resolved fields. */
@ObjectType()
@Entity({ tableName: 'tier_projection' })
export class TierProjection {
  [OptionalProps]?: 'tierEndAt' | 'createdAt' | 'updatedAt';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field(() => ID) @Property({ type: 'uuid', unique: true }) memberId: string;
  @Field(() => ID) @Property({ type: 'uuid' }) tierId: string;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When the tier ends; null: it does not end' })
  @Property({ type: 'timestamptz', nullable: true })
  tierEndAt: Date | null = null;
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}
