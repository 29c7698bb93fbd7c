import { Migration } from '@mikro-orm/migrations';
import { outboxChainSql, outboxTableSql } from '../../../core/events/outbox-event';

/**
 * The booking schema: venues, one row per venue slot that has held places (`held` never above the
 * venue's capacity: every booking raises it with one conditional UPDATE), bookings, idempotency keys
 * and the outbox. `starts_at` and `ends_at` are wall-clock timestamps in BOOKING_TIME_ZONE.
 */
export class Migration20261201BookingInitial extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table booking.venue (
        id uuid primary key,
        name text not null,
        type text not null check (type in ('restaurant', 'event', 'service')),
        address text,
        phone text,
        capacity integer not null check (capacity > 0),
        opening_time text not null,
        closing_time text not null,
        slot_minutes integer not null check (slot_minutes > 0),
        deleted_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index venue_list_idx on booking.venue (created_at desc, id) where deleted_at is null;

      create table booking.venue_slot (
        venue_id uuid not null references booking.venue (id),
        starts_at timestamp not null,
        held integer not null default 0 check (held >= 0),
        primary key (venue_id, starts_at)
      );

      create table booking.booking (
        id uuid primary key,
        member_id uuid not null,
        venue_id uuid not null references booking.venue (id),
        type text not null check (type in ('table', 'slot', 'ticket')),
        date text not null,
        time text not null,
        duration integer not null check (duration > 0),
        guests integer not null check (guests > 0),
        special_requests text,
        status text not null check (status in ('pending', 'confirmed', 'cancelled', 'completed')),
        check_in_code text not null,
        starts_at timestamp not null,
        ends_at timestamp not null,
        slot_starts timestamp[] not null,
        cancel_reason text,
        cancelled_at timestamptz,
        checked_in_at timestamptz,
        completed_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index booking_member_idx on booking.booking (member_id, starts_at desc);
      create index booking_venue_idx on booking.booking (venue_id, starts_at desc);
      create index booking_list_idx on booking.booking (starts_at desc, id);
      create index booking_due_idx on booking.booking (ends_at) where status = 'confirmed';

      create table booking.idempotency_record (
        scope text not null,
        key text not null,
        request_hash text not null,
        response jsonb,
        created_at timestamptz not null default now(),
        primary key (scope, key)
      );

      ${outboxTableSql('booking')}
      ${outboxChainSql('booking')}
    `);
  }
}
