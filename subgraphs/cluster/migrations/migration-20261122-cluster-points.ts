import { Migration } from '@mikro-orm/migrations';

/**
 * The member's latest point balance as the point service announced it (`balanceAfter` of the newest
 * event), for the `points` snapshot of changes that no point event triggers (expiry).
 */
export class Migration20261122ClusterPoints extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      alter table cluster.member_purchase add column points numeric(20, 2);
      alter table cluster.member_purchase add column points_at timestamptz;
    `);
  }
}
