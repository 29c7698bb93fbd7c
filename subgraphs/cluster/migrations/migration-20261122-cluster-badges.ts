import { Migration } from '@mikro-orm/migrations';

/** Badges, members' progress towards them, and the badge consumer's own record of applied events. */
export class Migration20261122ClusterBadges extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table cluster.badge (
        id uuid primary key,
        name_en varchar(256) not null,
        name_th varchar(256),
        name_cn varchar(256),
        description_en text not null,
        description_th text,
        description_cn text,
        image_url text,
        rule jsonb not null,
        is_active boolean not null default true,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz
      );
      create index badge_live_idx on cluster.badge (created_at) where deleted_at is null;

      create table cluster.badge_member_progress (
        id uuid primary key,
        member_id uuid not null,
        badge_id uuid not null references cluster.badge (id),
        current_value numeric(20, 2) not null default 0,
        goal_value numeric(20, 2) not null,
        is_completed boolean not null default false,
        completed_at timestamptz,
        first_event_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        unique (member_id, badge_id)
      );
      create index badge_member_progress_badge_idx on cluster.badge_member_progress (badge_id, is_completed);

      -- Point events the badge consumer (queue cluster.badges) applied; cluster.processed_event belongs to tiering.
      create table cluster.badge_processed_event (
        event_id uuid primary key,
        processed_at timestamptz not null default now()
      );
    `);
  }
}
