import { Migration } from '@mikro-orm/migrations';

/** Tier permission for the seeded roles: marketing runs the programme, so it manages the tiers. */
export class Migration20261122TierPermissions extends Migration {
  async up(): Promise<void> {
    this.addSql(`update auth.role set permissions = permissions || '{tier:manage}' where key = 'marketing';`);
  }
}
