import { Migration } from '@mikro-orm/migrations';

/**
 * Reward codes. A code is unique among unused codes (a used code's characters may be handed out
 * again); a redemption issues at most one code. The list's orders and filters have their indexes.
 */
export class Migration20261126RewardCodes extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table reward.reward_code (
        id uuid primary key,
        code text not null check (code ~ '^[23456789ABCDEFGHJKMNPQRSTVWXYZ]{6}$'),
        reward_id uuid not null references reward.reward (id),
        reward_catalog_id uuid not null references reward.reward_catalog (id),
        member_id uuid not null,
        redemption_id uuid unique,
        staff_id text,
        used_at timestamptz,
        expired_at timestamptz not null,
        expiration_notified_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        check ((staff_id is null) = (used_at is null))
      );
      create unique index reward_code_unused_code_uidx on reward.reward_code (code) where used_at is null;
      create index reward_code_code_idx on reward.reward_code (code, created_at desc);
      create index reward_code_member_idx on reward.reward_code (member_id, created_at desc, id);
      create index reward_code_list_idx on reward.reward_code (created_at desc, id);
      create index reward_code_catalog_member_idx on reward.reward_code (reward_catalog_id, member_id, created_at);
      create index reward_code_expiring_idx on reward.reward_code (expired_at) where used_at is null and expiration_notified_at is null;
    `);
  }
}
