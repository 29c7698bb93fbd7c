import { Migration20261130WebhookInitial } from './migration-20261130-webhook-initial';

/** Every webhook migration, by name, in the order they apply. */
export const webhookMigrations = {
  Migration20261130WebhookInitial,
};
