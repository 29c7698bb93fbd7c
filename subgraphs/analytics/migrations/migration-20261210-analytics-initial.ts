import { Migration } from '@mikro-orm/migrations';
import { consumerTablesSql } from '../../../core/events/event-consumer';
import { outboxChainSql, outboxTableSql } from '../../../core/events/outbox-event';

/**
 * The analytics schema: the read model built from the other domains' events (never from their tables),
 * the events already applied (by id: a repeat changes nothing), the reports, the outbox (unused: the
 * domain publishes nothing, but every domain has one) and the consumer's tables.
 */
export class Migration20261210AnalyticsInitial extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      -- Every event the read model applied, by id: a second delivery or a replay of it is passed over.
      create table analytics.applied_event (
        event_id uuid primary key,
        type text not null,
        applied_at timestamptz not null default now()
      );

      -- One row per customer (customer.created, tier changes, point balances, deletion).
      create table analytics.customer (
        customer_id uuid primary key,
        name text,
        email text,
        phone text,
        registered_at timestamptz,
        tier_id text,
        tier_name text,
        points_balance numeric(16,2) not null default 0,
        points_earned numeric(16,2) not null default 0,
        points_redeemed numeric(16,2) not null default 0,
        -- The latest UTC day with an action: the customers active in a period ending today (dashboard).
        last_active_day date,
        deleted_at timestamptz
      );
      create index customer_registered_idx on analytics.customer (registered_at);
      create index customer_last_active_idx on analytics.customer (last_active_day);

      -- Daily aggregates per customer (UTC days): actions (what makes a customer active), purchases,
      -- bookings and check-ins, points and rewards.
      create table analytics.customer_day (
        day date not null,
        customer_id uuid not null,
        actions integer not null default 0,
        purchases integer not null default 0,
        purchase_amount numeric(16,2) not null default 0,
        bookings integer not null default 0,
        check_ins integer not null default 0,
        points_earned numeric(16,2) not null default 0,
        points_redeemed numeric(16,2) not null default 0,
        points_expired numeric(16,2) not null default 0,
        rewards_claimed integer not null default 0,
        rewards_redeemed integer not null default 0,
        campaign_joins integer not null default 0,
        primary key (day, customer_id)
      );
      create index customer_day_customer_idx on analytics.customer_day (customer_id, day);

      -- The same figures summed per UTC day, and registrations: the dashboard reads a row per day.
      create table analytics.day_total (
        day date primary key,
        registrations integer not null default 0,
        actions integer not null default 0,
        purchases integer not null default 0,
        purchase_amount numeric(16,2) not null default 0,
        bookings integer not null default 0,
        check_ins integer not null default 0,
        points_earned numeric(16,2) not null default 0,
        points_redeemed numeric(16,2) not null default 0,
        points_expired numeric(16,2) not null default 0,
        rewards_claimed integer not null default 0,
        rewards_redeemed integer not null default 0,
        campaign_joins integer not null default 0
      );

      -- Daily sales per store and category ('' for none): purchases and the refunds made that day.
      create table analytics.sales_day (
        day date not null,
        store_id text not null,
        category text not null,
        transactions integer not null default 0,
        gross numeric(16,2) not null default 0,
        refunded numeric(16,2) not null default 0,
        primary key (day, store_id, category)
      );

      -- The purchases (refunds, campaign revenue, the transactions report).
      create table analytics.purchase (
        transaction_id text primary key,
        customer_id uuid not null,
        amount numeric(14,2) not null,
        refunded numeric(14,2) not null default 0,
        status text not null,
        store_id text,
        category text,
        points_earned numeric(14,2) not null default 0,
        occurred_at timestamptz not null
      );
      create index purchase_customer_idx on analytics.purchase (customer_id, occurred_at);

      -- The point ledger entries (the points report).
      create table analytics.points_entry (
        transaction_id text primary key,
        customer_id uuid not null,
        type text not null check (type in ('earned', 'redeemed', 'expired')),
        points numeric(14,2) not null,
        reason text,
        balance_after numeric(16,2) not null,
        created_at timestamptz not null
      );
      create index points_entry_time_idx on analytics.points_entry (created_at, transaction_id);

      -- Reward claims and their use (reward figures, the rewards report).
      create table analytics.reward_claim (
        reward_code_id text primary key,
        customer_id uuid not null,
        reward_id text not null,
        points numeric(14,2) not null,
        claimed_at timestamptz not null,
        redeemed_at timestamptz
      );
      create index reward_claim_reward_idx on analytics.reward_claim (reward_id);

      create table analytics.campaign (
        campaign_id uuid primary key,
        name text not null,
        type text not null,
        status text not null,
        start_date timestamptz not null,
        end_date timestamptz not null,
        created_at timestamptz not null
      );

      -- Participations: one per join (a customer may join again after a completion).
      create table analytics.campaign_participant (
        campaign_id uuid not null,
        customer_id uuid not null,
        joined_at timestamptz not null,
        completed_at timestamptz,
        reward_points numeric(14,2) not null default 0,
        primary key (campaign_id, customer_id, joined_at)
      );

      create table analytics.report (
        id uuid primary key,
        type text not null check (type in ('customers', 'points', 'transactions', 'campaigns', 'rewards')),
        format text not null check (format in ('csv')),
        status text not null check (status in ('processing', 'completed', 'failed', 'expired')),
        date_from timestamptz,
        date_to timestamptz,
        filters jsonb not null default '{}',
        requested_by text not null,
        file_key text,
        row_count bigint,
        error text,
        created_at timestamptz not null,
        completed_at timestamptz,
        expires_at timestamptz
      );
      create index report_expiry_idx on analytics.report (expires_at) where file_key is not null;

      ${outboxTableSql('analytics')}
      ${outboxChainSql('analytics')}
      ${consumerTablesSql('analytics')}
    `);
  }
}
