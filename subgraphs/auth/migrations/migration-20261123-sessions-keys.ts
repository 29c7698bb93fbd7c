import { Migration } from '@mikro-orm/migrations';

/**
 * API keys record their last use, and none outlives or outranks its creator: keys whose creator is
 * not a live staff member, and keys whose role holds a permission their creator's role lacks, are
 * revoked. Reset requests are throttled per staff member by the sessions' creation times.
 */
export class Migration20261123SessionsKeys extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      alter table auth.service_api_key add column last_used_at timestamptz;
      create index service_api_key_created_idx on auth.service_api_key (created_at desc);

      update auth.service_api_key key set revoked_at = now()
       where key.revoked_at is null
         and not exists (select 1 from auth.staff creator where creator.id = key.created_by_id and creator.deleted_at is null);

      update auth.service_api_key key set revoked_at = now()
        from auth.role key_role, auth.staff creator, auth.role creator_role
       where key.revoked_at is null
         and key_role.id = key.role_id and creator.id = key.created_by_id and creator_role.id = creator.role_id
         and not ('*' = any (creator_role.permissions)
                  or (not '*' = any (key_role.permissions) and creator_role.permissions @> key_role.permissions));

      create index password_reset_session_staff_created_idx on auth.password_reset_session (staff_id, created_at desc);
    `);
  }
}
