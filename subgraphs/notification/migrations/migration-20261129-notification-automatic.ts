import { Migration } from '@mikro-orm/migrations';
import { consumerTablesSql } from '../../../core/events/event-consumer';

/** Notification consumes the other domains' events (automatic notifications): the consumer's tables. */
export class Migration20261129NotificationAutomatic extends Migration {
  async up(): Promise<void> {
    this.addSql(consumerTablesSql('notification'));
  }
}
