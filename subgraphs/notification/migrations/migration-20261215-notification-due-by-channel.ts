import { Migration } from '@mikro-orm/migrations';

/**
 * The due deliveries apart by kind of claim: the in-app batch and the external leases each read a
 * partial index of their own rows, so an external claim no longer walks past the pending rows of a
 * large in-app send (the one index before had no channel, and the claim filtered them out one by one).
 */
export class Migration20261215NotificationDueByChannel extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create index delivery_due_in_app_idx on notification.delivery (rank, next_attempt_at) where status = 'pending' and channel = 'in_app';
      create index delivery_due_external_idx on notification.delivery (rank, next_attempt_at) where status = 'pending' and channel <> 'in_app';
      drop index notification.delivery_due_idx;
    `);
  }
}
