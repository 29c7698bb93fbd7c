import { Migration } from '@mikro-orm/migrations';
import { consumerTablesSql } from '../../../core/events/event-consumer';
import { outboxChainSql, outboxTableSql } from '../../../core/events/outbox-event';

/**
 * The webhook schema: webhooks, the events they receive (one body per event), one delivery per webhook
 * and event, the outbox and the consumer's tables (it consumes the other domains' events). The worker
 * claims due pending deliveries by `next_attempt_at` with a lease (`lease_until`, `lease_token`): a
 * delivery whose process died is due again once its lease has run out.
 */
export class Migration20261130WebhookInitial extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table webhook.webhook (
        id text primary key,
        url text not null,
        events text[] not null,
        secret text not null,
        status text not null default 'active' check (status in ('active', 'failed', 'disabled')),
        failed_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index webhook_list_idx on webhook.webhook (created_at desc, id);

      create table webhook.webhook_event (
        id uuid primary key,
        type text not null,
        body text not null,
        created_at timestamptz not null
      );

      create table webhook.webhook_delivery (
        id uuid primary key,
        webhook_id text not null references webhook.webhook (id) on delete cascade,
        event_id uuid not null references webhook.webhook_event (id),
        event_type text not null,
        status text not null check (status in ('pending', 'succeeded', 'failed', 'held')),
        attempts integer not null default 0,
        retries_used integer not null default 0,
        last_status_code integer,
        last_error text,
        next_attempt_at timestamptz,
        lease_until timestamptz,
        lease_token uuid,
        delivered_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (webhook_id, event_id)
      );
      create index webhook_delivery_due_idx on webhook.webhook_delivery (webhook_id, next_attempt_at, id) where status = 'pending';
      create index webhook_delivery_leased_idx on webhook.webhook_delivery (webhook_id) where status = 'pending' and lease_until is not null;
      create index webhook_delivery_log_idx on webhook.webhook_delivery (webhook_id, created_at desc, id);
      create index webhook_delivery_event_idx on webhook.webhook_delivery (event_id);
      create index webhook_delivery_finished_idx on webhook.webhook_delivery (updated_at) where status in ('succeeded', 'failed');

      ${outboxTableSql('webhook')}
      ${outboxChainSql('webhook')}
      ${consumerTablesSql('webhook')}
    `);
  }
}
