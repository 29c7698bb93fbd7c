import { Migration } from '@mikro-orm/migrations';

/** What has been refunded of each participant's purchase (from `transaction.refunded`): revenue is net of it. */
export class Migration20261203CampaignRefundedPurchases extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      alter table campaign.participant_purchase add column refunded_amount numeric(14,2) not null default 0;
      create index participant_purchase_transaction_idx on campaign.participant_purchase (transaction_id);`);
  }
}
