import { Migration } from '@mikro-orm/migrations';
import { tallySql, tallyTableSql } from '../../../core/db/tally';

/**
 * Tier reads that stay flat with a million members: the `tier_members` tally counts each tier's
 * members (the member counts, the yearly distribution and the projection list's total), and indexes
 * follow the projection list's order (newest first, ties by id), over all tiers and within one.
 */
export class Migration20261124ClusterLargeTiers extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create index tier_projection_order_idx on cluster.tier_projection (created_at desc, id);
      create index tier_projection_tier_order_idx on cluster.tier_projection (tier_id, created_at desc, id);
      drop index cluster.tier_projection_tier_idx;

      ${tallyTableSql('cluster')}
      ${tallySql({ schema: 'cluster', table: 'tier_projection', name: 'tier_members', key: 'tier_id::text' })}
    `);
  }
}
