import { Migration } from '@mikro-orm/migrations';

/**
 * Referrals (issue 29): each member's referral code (made at its first read, never reused), the referrals
 * of new members who signed up with a code (accepted, then completed by their first qualifying purchase,
 * or refused with the reason), and the program's settings (one row).
 */
export class Migration20270103PointReferrals extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table point.referral_code (
        member_id uuid primary key,
        code text not null unique,
        created_at timestamptz not null default now()
      );

      create table point.referral (
        id uuid primary key,
        code text not null,
        referrer_id uuid,
        referred_id uuid not null unique,
        status text not null check (status in ('pending', 'completed', 'refused')),
        refusal text check ((status = 'refused') = (refusal is not null)),
        fingerprints text[] not null default '{}',
        purchase_id uuid,
        created_at timestamptz not null,
        completed_at timestamptz
      );
      create index referral_referrer_idx on point.referral (referrer_id, created_at desc, id desc);
      create index referral_fingerprints_idx on point.referral using gin (fingerprints) where status <> 'refused';
      create index referral_created_idx on point.referral (created_at desc, id desc);

      create table point.referral_settings (
        id int primary key check (id = 1),
        enabled boolean not null default true,
        referrer_limit int check (referrer_limit >= 0),
        min_purchase_amount numeric(14, 2) not null default 0 check (min_purchase_amount >= 0),
        completion_days int check (completion_days between 1 and 3650),
        updated_at timestamptz not null default now()
      );
      insert into point.referral_settings (id) values (1);
    `);
  }
}
