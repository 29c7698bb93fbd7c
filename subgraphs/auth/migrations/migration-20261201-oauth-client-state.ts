import { Migration } from '@mikro-orm/migrations';

/** An admin may disable an OAuth client (its tokens are revoked; it authenticates no more until enabled again). */
export class Migration20261201OAuthClientState extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table auth.oauth_client add column disabled_at timestamptz null;`);
  }
}
