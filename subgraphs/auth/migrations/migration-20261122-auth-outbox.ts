import { Migration } from '@mikro-orm/migrations';
import { outboxTableSql } from '../../../core/events/outbox-event';

/** The auth outbox: member profile changes are announced to the other domains. */
export class Migration20261122AuthOutbox extends Migration {
  async up(): Promise<void> {
    this.addSql(outboxTableSql('auth'));
  }
}
