import { defineModule } from '../../core/module';
import { notificationServices } from './context';
import { NOTIFICATION } from './contract';
import { InAppNotification } from './entities/in-app-notification';
import { MailTemplate } from './entities/mail-template';
import { notificationMigrations } from './migrations';
import { InAppNotificationResolver } from './resolvers/in-app-notification.resolver';
import { MailTemplateResolver } from './resolvers/mail-template.resolver';
import { NotificationStreamResolver } from './resolvers/notification-stream.resolver';
import { TemplatedNotificationResolver } from './resolvers/templated-notification.resolver';
import { notificationDeps } from './notification-deps';
import { applyAutomaticNotification, AUTOMATIC_NOTIFICATION_EVENTS, AUTOMATIC_NOTIFICATIONS_QUEUE } from './services/automatic-notifications';
import { startTranslationWorker } from './services/translation-job';
import { parseNotificationSettings } from './settings';

/** Notification: in-app notifications of members (by hand, from templates, from the platform's events, translated) and their live stream, mail templates. */
export const notificationModule = defineModule({
  contract: NOTIFICATION,
  defaultPort: 4005,
  entities: [InAppNotification, MailTemplate],
  migrations: notificationMigrations,
  resolvers: [InAppNotificationResolver, TemplatedNotificationResolver, MailTemplateResolver, NotificationStreamResolver],
  services: notificationServices,
  settings: parseNotificationSettings,
  environment: ['TRANSLATE_URL', 'TRANSLATE_API_KEY', 'TRANSLATE_RETRY_LIMIT', 'TRANSLATE_RETRY_DELAY_SECONDS'],
  deps: notificationDeps,
  onStart: startTranslationWorker,
  consumers: [{ queue: AUTOMATIC_NOTIFICATIONS_QUEUE, events: AUTOMATIC_NOTIFICATION_EVENTS, apply: applyAutomaticNotification }],
  onStop: ({ deps }) => deps.stream.stop(),
});
