import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { SoftDeletable } from '../../../core/db/soft-deletable';

export const VENUE_TYPES = ['restaurant', 'event', 'service'] as const;

@ObjectType({ description: "A day's free slot starts of a venue" })
export class DaySlots {
  @Field({ description: 'YYYY-MM-DD (service day)' }) date: string;
  @Field(() => [String], { description: 'HH:MM starts with at least one free place' }) times: string[];
}

/** A place customers book: its daily slots run from opening to closing time, `capacity` guests each. Soft-deleted (core/db/soft-deletable.ts). */
@ObjectType({ description: 'A venue: restaurant, event or service, with its opening hours and slots' })
@Entity({ tableName: 'venue' })
export class Venue extends SoftDeletable {
  [OptionalProps]?: 'createdAt' | 'updatedAt' | 'deletedAt' | 'availableSlots';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field() @Property({ type: 'text' }) name: string;
  @Field({ description: 'restaurant, event or service' }) @Property({ type: 'text' }) type: string;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) address: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) phone: string | null = null;
  @Field(() => Int, { description: 'Guests per slot' }) @Property({ type: 'integer' }) capacity: number;
  @Field({ description: 'HH:MM' }) @Property({ type: 'text' }) openingTime: string;
  @Field({ description: 'HH:MM; at or before opening: the next day' }) @Property({ type: 'text' }) closingTime: string;
  @Field(() => Int) @Property({ type: 'integer' }) slotMinutes: number;
  @Field() @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field() @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();

  /** Filled by the service for lists and reads: the horizon's free slot starts. */
  @Field(() => [DaySlots], { description: 'Free slot starts of the next BOOKING horizon days (today first)' })
  availableSlots: DaySlots[] = [];
}
