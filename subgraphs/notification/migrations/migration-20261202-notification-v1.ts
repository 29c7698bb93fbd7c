import { Migration } from '@mikro-orm/migrations';

/**
 * Version-1 notifications (Part 3): a notification sent to customers or a segment over one channel, one
 * delivery row per recipient and channel (unique: never two), the customers' preferences, templates and
 * the Idempotency-Key records of sends.
 */
export class Migration20261202NotificationV1 extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table notification.v1_notification (
        id uuid primary key,
        title text not null,
        body text not null,
        image text,
        action_url text,
        channel text not null check (channel in ('in_app', 'chatapp_mini_program', 'sms', 'email')),
        priority text not null default 'normal' check (priority in ('low', 'normal', 'high')),
        category text check (category in ('promotions', 'loyalty', 'transactions', 'campaigns')),
        template_name text,
        segment_id uuid,
        customer_ids uuid[],
        status text not null check (status in ('scheduled', 'sending', 'completed')),
        expanded boolean not null default false,
        expand_cursor text,
        total_recipients integer not null default 0,
        delivered integer not null default 0,
        failed integer not null default 0,
        skipped integer not null default 0,
        opened integer not null default 0,
        clicked integer not null default 0,
        note text,
        created_by text,
        scheduled_at timestamptz,
        sent_at timestamptz,
        completed_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index v1_notification_list_idx on notification.v1_notification (created_at desc, id);
      create index v1_notification_due_idx on notification.v1_notification (scheduled_at) where status = 'scheduled';
      create index v1_notification_sending_idx on notification.v1_notification (id) where status = 'sending';

      create table notification.delivery (
        id uuid primary key default gen_random_uuid(),
        notification_id uuid not null references notification.v1_notification (id),
        customer_id uuid not null,
        channel text not null,
        rank smallint not null default 1,
        status text not null default 'pending' check (status in ('pending', 'sending', 'delivered', 'failed', 'skipped')),
        attempts integer not null default 0,
        next_attempt_at timestamptz not null default now(),
        lease_until timestamptz,
        lease_token uuid,
        quiet_until timestamptz,
        quiet_time_zone text,
        skip_reason text,
        last_error text,
        in_app_id uuid,
        delivered_at timestamptz,
        opened_at timestamptz,
        clicked_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (notification_id, customer_id, channel)
      );
      create index delivery_due_idx on notification.delivery (rank, next_attempt_at) where status = 'pending';
      create index delivery_open_idx on notification.delivery (notification_id) where status in ('pending', 'sending');
      create index delivery_lease_idx on notification.delivery (lease_until) where status = 'sending';
      create index delivery_in_app_idx on notification.delivery (in_app_id) where in_app_id is not null;

      create table notification.preference (
        customer_id uuid primary key,
        channels jsonb not null,
        categories jsonb not null,
        quiet_hours jsonb not null,
        updated_at timestamptz not null
      );

      create table notification.v1_template (
        id uuid primary key,
        name text not null,
        title text not null,
        body text not null,
        channel text not null check (channel in ('in_app', 'chatapp_mini_program', 'sms', 'email')),
        variables text[] not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create unique index v1_template_name_idx on notification.v1_template (lower(name));

      create table notification.idempotency_record (
        scope text not null,
        key text not null,
        request_hash text not null,
        response jsonb,
        created_at timestamptz not null default now(),
        primary key (scope, key)
      );
    `);
  }
}
