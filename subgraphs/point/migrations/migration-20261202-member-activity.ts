import { Migration } from '@mikro-orm/migrations';
import { consumerTablesSql } from '../../../core/events/event-consumer';

/**
 * What members did in other domains, for their interactions: bookings made, visits (check-ins) and
 * campaign joins, one row per event (its id), so that a redelivered event adds nothing; and the
 * consumer-side tables, this being the point domain's first consumer.
 */
export class Migration20261202PointMemberActivity extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table point.member_activity (
        id uuid primary key,
        member_id uuid not null,
        type text not null check (type in ('booking', 'visit', 'campaign_joined')),
        channel text not null,
        description text not null,
        source_id uuid not null,
        occurred_at timestamptz not null
      );
      create index member_activity_member_idx on point.member_activity (member_id, occurred_at desc);`);
    this.addSql(consumerTablesSql('point'));
  }
}
