import { Migration } from '@mikro-orm/migrations';
import { outboxTableSql } from '../../../core/events/outbox-event';

/** The cluster schema: tiers, each member's current tier (projection) and its history. */
export class Migration20261122ClusterInitial extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table cluster.tier (
        id uuid primary key,
        name_en varchar(256) not null,
        name_th varchar(256),
        name_cn varchar(256),
        description_en text not null,
        description_th text,
        description_cn text,
        image_url text,
        background text,
        level int not null default 0 check (level >= 0),
        requirement jsonb not null default '{}',
        benefit jsonb not null default '[]',
        is_active boolean not null default true,
        is_special boolean not null default false,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz
      );
      create index tier_level_idx on cluster.tier (level) where deleted_at is null;

      create table cluster.tier_projection (
        id uuid primary key,
        member_id uuid not null unique,
        tier_id uuid not null references cluster.tier (id),
        tier_end_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index tier_projection_tier_idx on cluster.tier_projection (tier_id);
      create index tier_projection_end_idx on cluster.tier_projection (tier_end_at) where tier_end_at is not null;

      create table cluster.tier_history (
        id uuid primary key,
        member_id uuid not null,
        change_type text not null check (change_type in ('upgrade', 'downgrade', 'expiry')),
        snapshot jsonb not null default '{}',
        from_tier_id uuid references cluster.tier (id),
        to_tier_id uuid references cluster.tier (id),
        created_at timestamptz not null
      );
      create index tier_history_member_idx on cluster.tier_history (member_id, created_at desc);
      create index tier_history_created_idx on cluster.tier_history (created_at);

      -- Purchases as the point service announced them, summed per member: what automatic tiering reads.
      create table cluster.member_purchase (
        member_id uuid primary key,
        purchase_amount numeric(20, 2) not null default 0,
        updated_at timestamptz not null default now()
      );

      -- Events from other domains already applied, so that at-least-once delivery applies each once.
      create table cluster.processed_event (
        event_id uuid primary key,
        processed_at timestamptz not null default now()
      );

      ${outboxTableSql('cluster')}
    `);
  }
}
