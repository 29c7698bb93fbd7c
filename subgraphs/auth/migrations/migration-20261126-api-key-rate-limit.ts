import { Migration } from '@mikro-orm/migrations';

/** An API key may carry its own hourly limit (the enterprise tier of contract section 1); null keeps the premium tier. */
export class Migration20261126ApiKeyRateLimit extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table auth.service_api_key add column rate_limit_per_hour integer null check (rate_limit_per_hour > 0);`);
  }
}
