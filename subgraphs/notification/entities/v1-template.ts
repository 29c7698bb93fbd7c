import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { TextArrayType } from '../../../core/db/text-array-type';
import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { V1_CHANNELS } from './v1-notification';

/** A v1 notification template: a title and body with `{{variable}}` placeholders, each declared in `variables`. */
@ObjectType('V1NotificationTemplate', { description: 'A notification template: title and body with {{variable}} placeholders' })
@Entity({ tableName: 'v1_template' })
export class V1Template {
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field() @Property({ type: 'text' }) name: string;
  @Field() @Property({ type: 'text' }) title: string;
  @Field() @Property({ type: 'text' }) body: string;
  @Field(() => String, { description: V1_CHANNELS.join(', ') }) @Property({ type: 'text' }) channel: string;
  @Field(() => [String]) @Property({ type: TextArrayType }) variables: string[];
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}
