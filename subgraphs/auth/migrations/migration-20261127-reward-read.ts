import { Migration } from '@mikro-orm/migrations';

/** Reading members' reward codes (v1 claims): tenants (shops, `read` scope) and marketing. */
export class Migration20261127RewardRead extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      update auth.role set permissions = permissions || '{reward:read}' where key in ('marketing', 'tenant') and not ('reward:read' = any (permissions));
    `);
  }
}
