import { Migration } from '@mikro-orm/migrations';

/** Referrals (issue 29): sign-ups accepted as referrals (`referral.created`) and referrals completed, by UTC day. */
export class Migration20270103AnalyticsReferrals extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      alter table analytics.day_total
        add column referrals_created integer not null default 0,
        add column referrals_completed integer not null default 0;
    `);
  }
}
