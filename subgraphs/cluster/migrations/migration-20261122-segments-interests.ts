import { Migration } from '@mikro-orm/migrations';

/**
 * Segments (manual membership in segment_member; rule segments keep a jsonb rule evaluated on read)
 * and interest categories with the members' picks. Live names are unique, case-insensitively.
 */
export class Migration20261122SegmentsInterests extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table cluster.segment (
        id uuid primary key,
        name_en varchar(256) not null,
        name_th varchar(256),
        name_cn varchar(256),
        description_en text,
        description_th text,
        description_cn text,
        type text not null check (type in ('manual', 'rule')),
        rule jsonb,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz,
        check ((type = 'rule') = (rule is not null))
      );
      create unique index segment_live_name_idx on cluster.segment (lower(name_en)) where deleted_at is null;

      create table cluster.segment_member (
        segment_id uuid not null references cluster.segment (id),
        member_id uuid not null,
        created_at timestamptz not null default now(),
        primary key (segment_id, member_id)
      );
      create index segment_member_member_idx on cluster.segment_member (member_id);

      create table cluster.interest_category (
        id uuid primary key,
        name_en varchar(256) not null,
        name_th varchar(256),
        name_cn varchar(256),
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz
      );
      create unique index interest_category_live_name_idx on cluster.interest_category (lower(name_en)) where deleted_at is null;

      create table cluster.member_interest (
        member_id uuid not null,
        category_id uuid not null references cluster.interest_category (id),
        created_at timestamptz not null default now(),
        primary key (member_id, category_id)
      );
      create index member_interest_category_idx on cluster.member_interest (category_id);
    `);
  }
}
