import { defineModule } from '../../core/module';
import { webhookServices } from './context';
import { WEBHOOK } from './contract';
import { Webhook } from './entities/webhook';
import { WebhookDelivery } from './entities/webhook-delivery';
import { WebhookEvent } from './entities/webhook-event';
import { webhookMigrations } from './migrations';
import { WebhookResolver } from './resolvers/webhook.resolver';
import { pruneDeliveries } from './services/delivery-worker';
import { fanOutConsumer } from './services/fan-out';
import { parseWebhookSettings, WebhookSettings } from './settings';
import { WebhookDeps, webhookDeps } from './webhook-deps';
import { WEBHOOK_SURFACE } from './surface';

/** Webhook: partners' endpoints for the platform's events, signed deliveries with retries, the delivery log and redelivery. */
export const webhookModule = defineModule<WebhookSettings, WebhookDeps, ReturnType<typeof webhookServices>>({
  contract: WEBHOOK,
  defaultPort: 4006,
  entities: [Webhook, WebhookEvent, WebhookDelivery],
  migrations: webhookMigrations,
  resolvers: [WebhookResolver],
  services: webhookServices,
  settings: parseWebhookSettings,
  environment: ['WEBHOOK_RETRY_SCHEDULE', 'WEBHOOK_TIMEOUT_MS', 'WEBHOOK_ALLOW_PRIVATE_TARGETS', 'WEBHOOK_RETENTION_DAYS', 'WEBHOOK_CONCURRENCY'],
  deps: webhookDeps,
  surface: WEBHOOK_SURFACE,
  onStart: async ({ deps }) => deps.worker.start(),
  consumers: ({ deps }) => [fanOutConsumer(deps)],
  jobs: [
    {
      queue: 'webhook.retention',
      cron: '23 * * * *',
      run: async ({ orm, settings }) => void (await pruneDeliveries(orm.em.fork(), settings.retentionDays)),
    },
  ],
  onStop: ({ deps }) => deps.worker.stop(),
});
