import { Migration } from '@mikro-orm/migrations';
import { consumerParkedFlagSql } from '../../../core/events/event-consumer';

/** The analytics consumers' positions say whether events of their stream are parked (core/events/event-consumer.ts). */
export class Migration20261216AnalyticsConsumerParkedFlag extends Migration {
  async up(): Promise<void> {
    this.addSql(consumerParkedFlagSql('analytics'));
  }
}
