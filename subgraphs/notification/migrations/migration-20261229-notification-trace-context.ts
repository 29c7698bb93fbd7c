import { Migration } from '@mikro-orm/migrations';

/** Each v1 notification's trace context (the request that sent or scheduled it): its sends' spans link to it. */
export class Migration20261229NotificationTraceContext extends Migration {
  async up(): Promise<void> {
    this.addSql('alter table notification.v1_notification add column trace_context text');
  }
}
