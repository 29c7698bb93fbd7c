import { Migration } from '@mikro-orm/migrations';
import { outboxChainSql } from '../../../core/events/outbox-event';

/** Each member's point events numbered in commit order (the outbox's aggregate, trigger and delivery record). */
export class Migration20261123PointOutboxChain extends Migration {
  async up(): Promise<void> {
    this.addSql(outboxChainSql('point'));
  }
}
