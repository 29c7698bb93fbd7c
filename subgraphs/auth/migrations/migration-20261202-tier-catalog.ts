import { Migration } from '@mikro-orm/migrations';

/**
 * `tier_catalog` is auth's projection of the cluster's tiers, kept from its `tier.catalog_changed`
 * events: the member list's `filter[tier]` resolves a tier's name and the entry tier from it, without
 * asking the cluster.
 */
export class Migration20261202TierCatalog extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table auth.tier_catalog (
        tier_id uuid primary key,
        name_en text,
        name_th text,
        name_cn text,
        level int not null,
        is_active boolean not null,
        is_special boolean not null,
        created_at timestamptz not null,
        deleted_at timestamptz
      );
    `);
  }
}
