import { Migration } from '@mikro-orm/migrations';

/** A manual tier change (v1 PATCH /customers/{id}/tier) keeps the reason staff gave in the history item. */
export class Migration20261126ClusterTierReason extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table cluster.tier_history add column reason text;`);
  }
}
