import { Migration } from '@mikro-orm/migrations';

/** One live tier per level: two creates racing for a level end in one row and one 409. */
export class Migration20261122TierLevelUnique extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      drop index if exists cluster.tier_level_idx;
      create unique index tier_level_live_uq on cluster.tier (level) where deleted_at is null;
    `);
  }
}
