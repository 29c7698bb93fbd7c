import { Migration20261128NotificationInitial } from './migration-20261128-notification-initial';

/** Every notification migration, by name, in the order they apply. */
export const notificationMigrations = {
  Migration20261128NotificationInitial,
};
