import { Migration } from '@mikro-orm/migrations';

/**
 * Point's projection of the member facts its earning rules test (`point.member_profile`): the current
 * tier, kept from the cluster's `customer.tier_changed`, and the birth month, kept from auth's
 * `member.profile_changed`. Each part carries the time of the event that wrote it (`tier_at`,
 * `profile_at`), so that an older event never overwrites a newer one. Empty here; filled as the
 * events arrive.
 */
export class Migration20261230PointMemberProfile extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table point.member_profile (
        member_id uuid primary key,
        tier_id text,
        tier_at timestamptz,
        birth_month smallint check (birth_month between 1 and 12),
        profile_at timestamptz
      );`);
  }
}
