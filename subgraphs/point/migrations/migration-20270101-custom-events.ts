import { Migration } from '@mikro-orm/migrations';

/**
 * Custom events (issue 29): the types an admin declares (their attributes), the events the retailer's
 * systems send (once per caller and event id), and the sources other domains' events evaluated by the
 * earning rules (a booking's check-in, a customer's creation), each once.
 */
export class Migration20270101PointCustomEvents extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table point.custom_event_type (
        id uuid primary key,
        name text not null,
        description text,
        attributes jsonb not null default '{}',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        deleted_at timestamptz
      );
      create unique index custom_event_type_name_uidx on point.custom_event_type (name) where deleted_at is null;

      create table point.custom_event (
        id uuid primary key,
        type text not null,
        member_id uuid not null,
        event_id text not null,
        caller text not null,
        occurred_at timestamptz not null,
        attributes jsonb not null default '{}',
        points_earned numeric(20, 2) not null default 0 check (points_earned >= 0),
        created_at timestamptz not null default now(),
        constraint custom_event_once unique (caller, event_id)
      );
      create index custom_event_member_idx on point.custom_event (member_id, occurred_at desc, id desc);

      create table point.rule_source (
        source_type text not null,
        source_id text not null,
        evaluated_at timestamptz not null default now(),
        primary key (source_type, source_id)
      );
    `);
  }
}
