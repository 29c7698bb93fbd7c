import { Migration } from '@mikro-orm/migrations';

/**
 * Redemptions of reward catalogs: one per member and Idempotency-Key, PENDING until completed or
 * failed. A FAILED one holds its reason; limits and quotas count the others (their indexes). A reward
 * code's redemption now has to exist.
 */
export class Migration20261128RewardRedemptions extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table reward.redemption (
        id uuid primary key,
        member_id uuid not null,
        reward_catalog_id uuid not null references reward.reward_catalog (id),
        reward_id uuid not null references reward.reward (id),
        point_usage numeric(20, 2) not null check (point_usage >= 0),
        idempotency_key text not null check (length(idempotency_key) between 1 and 255),
        state text not null default 'PENDING' check (state in ('PENDING', 'COMPLETED', 'FAILED')),
        stock_taken boolean not null,
        point_transaction_id uuid,
        failure_code text,
        failure_message text,
        completed_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        unique (member_id, idempotency_key),
        check ((state = 'FAILED') = (failure_code is not null)),
        check ((state = 'COMPLETED') = (completed_at is not null))
      );
      create index redemption_member_catalog_idx on reward.redemption (member_id, reward_catalog_id) where state <> 'FAILED';
      create index redemption_catalog_created_idx on reward.redemption (reward_catalog_id, created_at) where state <> 'FAILED';
      create index redemption_pending_idx on reward.redemption (created_at, id) where state = 'PENDING';
      alter table reward.reward_code add foreign key (redemption_id) references reward.redemption (id);
    `);
  }
}
