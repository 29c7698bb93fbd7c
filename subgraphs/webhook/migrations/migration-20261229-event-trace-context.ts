import { Migration } from '@mikro-orm/migrations';

/** Each event's trace context (its outbox row's `traceparent`): its deliveries' spans link to the request that committed it. */
export class Migration20261229WebhookEventTraceContext extends Migration {
  async up(): Promise<void> {
    this.addSql('alter table webhook.webhook_event add column trace_context text');
  }
}
