import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';

export const BOOKING_TYPES = ['table', 'slot', 'ticket'] as const;
export const BOOKING_STATUSES = ['pending', 'confirmed', 'cancelled', 'completed'] as const;

/** A customer's booking of `guests` places in the venue slots its duration covers. Written by BookingService in SQL. */
@ObjectType({ description: "A customer's booking at a venue" })
@Entity({ tableName: 'booking' })
export class Booking {
  [OptionalProps]?: 'qrCode' | 'noShow';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string;
  @Field(() => ID) @Property({ type: 'uuid' }) memberId: string;
  @Field(() => ID) @Property({ type: 'uuid' }) venueId: string;
  @Field({ description: 'table, slot or ticket' }) @Property({ type: 'text' }) type: string;
  @Field({ description: 'YYYY-MM-DD: the service day (BOOKING_TIME_ZONE)' }) @Property({ type: 'text' }) date: string;
  @Field({ description: 'HH:MM' }) @Property({ type: 'text' }) time: string;
  @Field(() => Int, { description: 'Minutes' }) @Property({ type: 'integer' }) duration: number;
  @Field(() => Int) @Property({ type: 'integer' }) guests: number;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) specialRequests: string | null;
  @Field({ description: 'pending, confirmed, cancelled or completed' }) @Property({ type: 'text' }) status: string;
  @Field() @Property({ type: 'text' }) checkInCode: string;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) cancelReason: string | null;
  @Field(() => Date, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) cancelledAt: Date | null;
  @Field(() => Date, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) checkedInAt: Date | null;
  @Field(() => Date, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) completedAt: Date | null;
  @Field() @Property({ type: 'timestamptz' }) createdAt: Date;
  @Field() @Property({ type: 'timestamptz' }) updatedAt: Date;

  @Field(() => Boolean, { description: 'Completed without a check-in' })
  get noShow(): boolean {
    return this.status === 'completed' && this.checkedInAt === null;
  }
}
