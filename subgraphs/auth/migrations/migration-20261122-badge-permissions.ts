import { Migration } from '@mikro-orm/migrations';

/** Badge permission for the seeded roles: marketing runs the programme, so it manages the badges. */
export class Migration20261122BadgePermissions extends Migration {
  async up(): Promise<void> {
    this.addSql(`update auth.role set permissions = permissions || '{badge:manage}' where key = 'marketing';`);
  }
}
