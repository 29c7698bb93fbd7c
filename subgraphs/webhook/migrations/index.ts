import { Migration20261130WebhookInitial } from './migration-20261130-webhook-initial';
import { Migration20261216WebhookConsumerParkedFlag } from './migration-20261216-consumer-parked-flag';
import { Migration20261229WebhookEventTraceContext } from './migration-20261229-event-trace-context';

/** Every webhook migration, by name, in the order they apply. */
export const webhookMigrations = {
  Migration20261130WebhookInitial,
  Migration20261216WebhookConsumerParkedFlag,
  Migration20261229WebhookEventTraceContext,
};
