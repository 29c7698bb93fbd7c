import { Migration } from '@mikro-orm/migrations';

/** Reading members' tiers (projections, history, yearly summary): marketing and tenants (shops). */
export class Migration20261122TierRead extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      update auth.role set permissions = permissions || '{tier:read}' where key = 'marketing';
      update auth.role set permissions = permissions || '{tier:read}' where key = 'tenant';
    `);
  }
}
