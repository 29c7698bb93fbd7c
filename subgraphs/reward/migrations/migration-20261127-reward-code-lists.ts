import { Migration } from '@mikro-orm/migrations';

/**
 * The reward code list's other filters get their indexes: `search` is a prefix of the code (LIKE
 * 'AB%' needs pattern operators whatever the database's collation), and the lists by reward and by
 * the staff member who used the codes, newest first.
 */
export class Migration20261127RewardCodeLists extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create index reward_code_code_prefix_idx on reward.reward_code (code text_pattern_ops);
      create index reward_code_reward_idx on reward.reward_code (reward_id, created_at desc, id);
      create index reward_code_staff_idx on reward.reward_code (staff_id, created_at desc, id) where staff_id is not null;
    `);
  }
}
