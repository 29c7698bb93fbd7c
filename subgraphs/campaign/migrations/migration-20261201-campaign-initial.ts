import { Migration } from '@mikro-orm/migrations';
import { consumerTablesSql } from '../../../core/events/event-consumer';
import { outboxChainSql, outboxTableSql } from '../../../core/events/outbox-event';

/**
 * The campaign schema: campaigns, their participants (at most one active participation per customer
 * and campaign), the purchases each participation counted, the outbox and the consumer's tables (it consumes the point domain's purchases).
 */
export class Migration20261201CampaignInitial extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table campaign.campaign (
        id uuid primary key,
        name text not null,
        description text,
        type text not null check (type in ('promotion', 'challenge', 'event')),
        status text not null default 'draft' check (status in ('draft', 'active', 'ended')),
        start_date timestamptz not null,
        end_date timestamptz not null,
        target_segment_id text,
        target_segment_name text,
        reward jsonb,
        rules jsonb not null,
        content jsonb,
        completions integer not null default 0,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        check (end_date > start_date)
      );
      create index campaign_list_idx on campaign.campaign (created_at desc, id);
      create index campaign_active_end_idx on campaign.campaign (end_date) where status = 'active';

      create table campaign.participant (
        id uuid primary key,
        campaign_id uuid not null references campaign.campaign (id),
        customer_id uuid not null,
        status text not null default 'active' check (status in ('active', 'completed', 'dropped')),
        joined_at timestamptz not null,
        completed_at timestamptz,
        current numeric(14,2) not null default 0,
        target numeric(14,2) not null,
        reward_claimed boolean not null default false,
        reward_reference text,
        updated_at timestamptz not null
      );
      create unique index participant_one_active_idx on campaign.participant (campaign_id, customer_id) where status = 'active';
      create index participant_campaign_idx on campaign.participant (campaign_id, joined_at desc, id);
      create index participant_customer_idx on campaign.participant (customer_id, joined_at desc);

      -- The purchases of a participant inside the window after joining (progress, analytics' revenue): one each, whatever the deliveries of its event.
      create table campaign.participant_purchase (
        participant_id uuid not null references campaign.participant (id),
        transaction_id text not null,
        amount numeric(14,2) not null,
        occurred_at timestamptz not null,
        counted_at timestamptz not null default now(),
        primary key (participant_id, transaction_id)
      );
      create index participant_purchase_time_idx on campaign.participant_purchase (participant_id, occurred_at);

      ${outboxTableSql('campaign')}
      ${outboxChainSql('campaign')}
      ${consumerTablesSql('campaign')}
    `);
  }
}
