import { Migration } from '@mikro-orm/migrations';

/**
 * A redemption of several units at once (v1 claims with `quantity`): it takes `quantity` units of
 * stock, spends `quantity` × its price in one spend and issues `quantity` codes, so a code's
 * redemption is no longer unique. Keys scoped by their caller (`v1:<caller>:<key>`) are longer.
 */
export class Migration20261130RewardRedemptionQuantity extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      alter table reward.redemption add column quantity int not null default 1 check (quantity >= 1);
      alter table reward.redemption drop constraint redemption_idempotency_key_check;
      alter table reward.redemption add constraint redemption_idempotency_key_check check (length(idempotency_key) between 1 and 600);
      alter table reward.reward_code drop constraint reward_code_redemption_id_key;
      create index reward_code_redemption_idx on reward.reward_code (redemption_id) where redemption_id is not null;
    `);
  }
}
