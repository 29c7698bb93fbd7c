import { Migration } from '@mikro-orm/migrations';
import { tallySql, tallyTableSql } from '../../../core/db/tally';

/**
 * Reads that stay flat however long the ledger grows: each balance row counts its member's entries
 * (kept by the ledger with the balance), the `entries` tally counts the whole ledger, and the history's
 * indexes follow its order (newest first, ties by id) in both directions, for one member and for all.
 */
export class Migration20261124PointLargeLedger extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      lock table point.point_balance, point.point_transaction in share row exclusive mode;
      alter table point.point_balance add column entry_count bigint not null default 0 check (entry_count >= 0);
      update point.point_balance balance set entry_count = counted.n
        from (select member_id, count(*) as n from point.point_transaction group by member_id) counted
       where counted.member_id = balance.member_id;

      create index point_transaction_member_order_idx on point.point_transaction (member_id, created_at desc, id desc);
      drop index point.point_transaction_member_idx;
      create index point_transaction_order_idx on point.point_transaction (created_at desc, id desc);
      drop index point.point_transaction_created_idx;

      ${tallyTableSql('point')}
      ${tallySql({ schema: 'point', table: 'point_transaction', name: 'entries' })}
    `);
  }
}
