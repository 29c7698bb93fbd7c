import { defineModule } from '../../core/module';
import { notificationServices } from './context';
import { NOTIFICATION } from './contract';
import { InAppNotification } from './entities/in-app-notification';
import { MailTemplate } from './entities/mail-template';
import { notificationMigrations } from './migrations';
import { InAppNotificationResolver } from './resolvers/in-app-notification.resolver';
import { MailTemplateResolver } from './resolvers/mail-template.resolver';
import { applyAutomaticNotification, AUTOMATIC_NOTIFICATION_EVENTS, AUTOMATIC_NOTIFICATIONS_QUEUE } from './services/automatic-notifications';

/** Notification: in-app notifications of members (the live stream, mail templates and automatic notifications come later). */
export const notificationModule = defineModule({
  contract: NOTIFICATION,
  defaultPort: 4005,
  entities: [InAppNotification, MailTemplate],
  migrations: notificationMigrations,
  resolvers: [InAppNotificationResolver, MailTemplateResolver],
  services: notificationServices,
  consumers: [{ queue: AUTOMATIC_NOTIFICATIONS_QUEUE, events: AUTOMATIC_NOTIFICATION_EVENTS, apply: applyAutomaticNotification }],
});
