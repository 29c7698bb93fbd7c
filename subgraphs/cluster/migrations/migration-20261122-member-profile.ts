import { Migration } from '@mikro-orm/migrations';

/** What the cluster domain keeps of a member's profile, from auth's member.profile_changed events. */
export class Migration20261122MemberProfile extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table cluster.member_profile (
        member_id uuid primary key,
        birth_month int check (birth_month between 1 and 12),
        profile_at timestamptz not null
      );
      create index member_profile_birth_month_idx on cluster.member_profile (birth_month);
    `);
  }
}
