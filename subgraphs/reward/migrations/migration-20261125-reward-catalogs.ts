import { Migration } from '@mikro-orm/migrations';

/**
 * Reward catalogs get their endpoints: the counts their stats show (kept by the reward codes, as the
 * reward's own), a window that ends after it starts, a quota given whole, a tier condition given
 * with its tiers, and the indexes of the list's two orders.
 */
export class Migration20261125RewardCatalogs extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      alter table reward.reward_catalog
        add column redeemed_count int not null default 0 check (redeemed_count >= 0),
        add column used_count int not null default 0 check (used_count >= 0),
        add check ((window_start is null) = (window_end is null) and (window_end is null or window_end > window_start)),
        add check ((quota_type is null) = (quota_number_in_period is null) and (quota_type is null) = (quota_limit_per_period is null)),
        add check ((tier_condition is null) = (cardinality(tier_requirement) = 0));
      create index reward_catalog_created_idx on reward.reward_catalog (created_at desc, id) where deleted_at is null;
      create index reward_catalog_point_usage_idx on reward.reward_catalog (point_usage, id) where deleted_at is null;
    `);
  }
}
