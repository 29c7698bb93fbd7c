import { Migration } from '@mikro-orm/migrations';
import { consumerTablesSql } from '../../../core/events/event-consumer';
import { outboxChainSql } from '../../../core/events/outbox-event';

/**
 * Events in order per member, both ways: the cluster outbox numbers each member's events in commit
 * order, and the cluster's consumers keep positions and parked events. The ids the tiering and badge
 * consumers recorded become the consumed events of their queues.
 */
export class Migration20261123ClusterOutboxChain extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      ${outboxChainSql('cluster')}
      ${consumerTablesSql('cluster')}
      insert into cluster.consumed_event (queue, event_id, consumed_at) select 'cluster.points', event_id, processed_at from cluster.processed_event;
      insert into cluster.consumed_event (queue, event_id, consumed_at) select 'cluster.badges', event_id, processed_at from cluster.badge_processed_event;
      drop table cluster.processed_event;
      drop table cluster.badge_processed_event;
    `);
  }
}
