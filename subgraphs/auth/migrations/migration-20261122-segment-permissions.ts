import { Migration } from '@mikro-orm/migrations';

/** Segments and interests: marketing reads them (segment:read) and manages them (segment:manage). */
export class Migration20261122SegmentPermissions extends Migration {
  async up(): Promise<void> {
    this.addSql(`update auth.role set permissions = permissions || '{segment:read,segment:manage}' where key = 'marketing';`);
  }
}
