import { Migration20261128NotificationInitial } from './migration-20261128-notification-initial';
import { Migration20261129NotificationStream } from './migration-20261129-notification-stream';

/** Every notification migration, by name, in the order they apply. */
export const notificationMigrations = {
  Migration20261128NotificationInitial,
  Migration20261129NotificationStream,
};
