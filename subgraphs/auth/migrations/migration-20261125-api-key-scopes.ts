import { Migration } from '@mikro-orm/migrations';

/** API keys grant v1 scopes (contract section 2); keys made before hold the default, `read`. */
export class Migration20261125ApiKeyScopes extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table auth.service_api_key add column scopes text[] not null default '{read}';`);
  }
}
