import { Migration } from '@mikro-orm/migrations';

/**
 * An award keeps what its caller said of it: the caller's own transaction id (`reference_id`, which
 * makes a repeated award of it for the member return the first entry) and free-form `metadata`.
 */
export class Migration20261130PointAwardReference extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      alter table point.point_transaction add column reference_id text;
      alter table point.point_transaction add column metadata jsonb;
    `);
  }
}
