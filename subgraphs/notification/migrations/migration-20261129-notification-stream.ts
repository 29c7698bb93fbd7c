import { Migration } from '@mikro-orm/migrations';

/**
 * The members' live stream: every notification event written to the outbox is announced on the
 * `notification_stream` channel (pg_notify in the writing transaction: delivered at its commit, to
 * every process listening, never for a rolled-back write). The payload names the member and the
 * event's sequence only (NOTIFY payloads are limited to 8,000 bytes); listeners read the event from
 * the outbox. A reconnecting client replays a member's events after its last one by that index.
 */
export class Migration20261129NotificationStream extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create index outbox_event_stream_idx on notification.outbox_event (aggregate_id, sequence);
      create function notification.outbox_event_announce() returns trigger language plpgsql as $$
      begin
        if new.aggregate_id is not null then
          perform pg_notify('notification_stream', json_build_object('memberId', new.aggregate_id, 'sequence', new.sequence::text)::text);
        end if;
        return new;
      end $$;
      create trigger outbox_event_announce after insert on notification.outbox_event
        for each row execute function notification.outbox_event_announce();
    `);
  }
}
