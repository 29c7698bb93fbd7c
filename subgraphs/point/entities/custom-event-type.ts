import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { randomUUID } from 'node:crypto';
import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { SoftDeletable } from '../../../core/db/soft-deletable';
import type { EventAttributes } from '../services/earning-rules/rule-definition';

/** A kind of custom event an admin declared: its name (unique among live types) and the attributes its events carry. */
@ObjectType({ description: 'A declared kind of custom event: its events carry these attributes, and rules of custom_event:<name> test them' })
@Entity({ tableName: 'custom_event_type' })
export class CustomEventType extends SoftDeletable {
  [OptionalProps]?: 'description' | 'attributes' | 'createdAt' | 'updatedAt' | 'deletedAt';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field({ description: 'lowercase letters, digits and _ (survey_completed)' }) @Property({ type: 'text' }) name: string;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) description: string | null = null;
  @Field(() => GraphQLJSONObject, { description: '{<name>: {type: string|number|boolean, required}}' }) @Property({ type: 'jsonb' }) attributes: EventAttributes = {};
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}
