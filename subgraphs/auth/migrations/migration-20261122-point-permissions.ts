import { Migration } from '@mikro-orm/migrations';

/** Point permissions for the seeded roles: marketing runs the programme, tenants (shops) read and ask. */
export class Migration20261122PointPermissions extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      update auth.role set permissions = permissions || '{point:read,point:manage,point:request,point:review}' where key = 'marketing';
      update auth.role set permissions = permissions || '{point:read,point:request}' where key = 'tenant';
    `);
  }
}
