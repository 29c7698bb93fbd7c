import { Migration } from '@mikro-orm/migrations';

/** The daily expiry notice stamps each lot it announced, so that a lot is announced once. */
export class Migration20261129PointExpiryNotice extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      alter table point.point_lot add column expiry_notified_at timestamptz;
      create index point_lot_expiry_notice_idx on point.point_lot (expires_at) where remaining > 0 and expires_at is not null and expiry_notified_at is null;
    `);
  }
}
