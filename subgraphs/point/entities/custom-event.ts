import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { timeOrderedId } from '../../../core/ids';

/**
 * Something a member did that the retailer's systems reported (an article read, a survey answered):
 * recorded once per caller and `eventId`, with the points the earning rules gave it in the same transaction.
 */
@ObjectType()
@Entity({ tableName: 'custom_event' })
export class CustomEvent {
  [OptionalProps]?: 'attributes' | 'pointsEarned' | 'createdAt';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = timeOrderedId();
  @Field({ description: 'The custom event type' }) @Property({ type: 'text' }) type: string;
  @Field(() => ID) @Property({ type: 'uuid' }) memberId: string;
  @Field({ description: "The sender's own id of the event: the same id again answers the first" }) @Property({ type: 'text' }) eventId: string;
  /** The sender (`kind:id`): event ids are unique per sender. */
  @Property({ type: 'text' }) caller: string;
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) occurredAt: Date;
  @Field(() => GraphQLJSONObject) @Property({ type: 'jsonb' }) attributes: Record<string, string | number | boolean> = {};
  @Field(() => Float, { description: 'Points the earning rules gave it' }) @Property({ type: 'decimal' }) pointsEarned: string = '0';
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}
