import { Migration } from '@mikro-orm/migrations';
import { consumerParkedFlagSql } from '../../../core/events/event-consumer';

/** The auth consumers' positions say whether events of their stream are parked (core/events/event-consumer.ts). */
export class Migration20261216AuthConsumerParkedFlag extends Migration {
  async up(): Promise<void> {
    this.addSql(consumerParkedFlagSql('auth'));
  }
}
