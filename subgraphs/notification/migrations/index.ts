import { Migration20261128NotificationInitial } from './migration-20261128-notification-initial';
import { Migration20261129NotificationAutomatic } from './migration-20261129-notification-automatic';
import { Migration20261129NotificationMailTemplates } from './migration-20261129-notification-mail-templates';
import { Migration20261129NotificationStream } from './migration-20261129-notification-stream';
import { Migration20261202NotificationV1 } from './migration-20261202-notification-v1';
import { Migration20261215NotificationDueByChannel } from './migration-20261215-notification-due-by-channel';
import { Migration20261216NotificationConsumerParkedFlag } from './migration-20261216-consumer-parked-flag';
import { Migration20261229NotificationTraceContext } from './migration-20261229-notification-trace-context';

/** Every notification migration, by name, in the order they apply. */
export const notificationMigrations = {
  Migration20261128NotificationInitial,
  Migration20261129NotificationAutomatic,
  Migration20261129NotificationMailTemplates,
  Migration20261129NotificationStream,
  Migration20261202NotificationV1,
  Migration20261215NotificationDueByChannel,
  Migration20261216NotificationConsumerParkedFlag,
  Migration20261229NotificationTraceContext,
};
