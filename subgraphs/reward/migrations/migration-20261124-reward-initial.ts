import { Migration } from '@mikro-orm/migrations';
import { outboxChainSql, outboxTableSql } from '../../../core/events/outbox-event';

/**
 * The reward schema: rewards and reward catalogs. A reward's stock never goes below zero (a check,
 * and every decrement is one conditional UPDATE); `redeemed_count` and `used_count` are kept by the
 * reward codes and feed the stats.
 */
export class Migration20261124RewardInitial extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table reward.reward (
        id uuid primary key,
        name_en varchar(100) not null,
        name_th varchar(100),
        name_cn varchar(100),
        description_en text not null,
        description_th text,
        description_cn text,
        type text not null check (type in ('VOUCHER', 'POINT', 'PRODUCT', 'OTHER')),
        discount_type text check (discount_type in ('PERCENTAGE', 'AMOUNT')),
        benefit_value numeric(20, 2),
        image_url text,
        stock int not null default 0 check (stock >= 0),
        stock_type text not null default 'LIMITED' check (stock_type in ('LIMITED', 'INFINITE')),
        reward_catalog_id uuid,
        store_ids text[] not null default '{}',
        minimum_spend numeric(20, 2),
        time_use_with_in int,
        window_start timestamptz,
        window_end timestamptz,
        is_active boolean not null default true,
        redeemed_count int not null default 0 check (redeemed_count >= 0),
        used_count int not null default 0 check (used_count >= 0),
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz,
        check ((window_start is null) = (window_end is null))
      );
      create index reward_list_idx on reward.reward (created_at desc) where deleted_at is null;

      create table reward.reward_catalog (
        id uuid primary key,
        name_en varchar(256) not null,
        name_th varchar(256),
        name_cn varchar(256),
        description_en text,
        description_th text,
        description_cn text,
        image_url text,
        reward_id uuid not null references reward.reward (id),
        point_usage numeric(20, 2) not null check (point_usage >= 0),
        limit_per_user int check (limit_per_user >= 1),
        quota_type text,
        quota_number_in_period int,
        quota_limit_per_period int,
        window_start timestamptz,
        window_end timestamptz,
        tier_condition text check (tier_condition in ('INCLUDE', 'EXCLUDE')),
        tier_requirement text[] not null default '{}',
        is_active boolean not null default true,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz
      );
      create index reward_catalog_reward_idx on reward.reward_catalog (reward_id);

      ${outboxTableSql('reward')}
      ${outboxChainSql('reward')}
    `);
  }
}
