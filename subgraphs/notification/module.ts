import { defineModule } from '../../core/module';
import { notificationServices } from './context';
import { NOTIFICATION } from './contract';
import { InAppNotification } from './entities/in-app-notification';
import { MailTemplate } from './entities/mail-template';
import { NotificationPreference } from './entities/notification-preference';
import { V1Notification } from './entities/v1-notification';
import { V1Template } from './entities/v1-template';
import { notificationMigrations } from './migrations';
import { InAppNotificationResolver } from './resolvers/in-app-notification.resolver';
import { MailTemplateResolver } from './resolvers/mail-template.resolver';
import { NotificationStreamResolver } from './resolvers/notification-stream.resolver';
import { TemplatedNotificationResolver } from './resolvers/templated-notification.resolver';
import { V1NotificationResolver } from './resolvers/v1-notification.resolver';
import { NOTIFICATION_SUPERGRAPH_OPERATIONS } from './services/notification-supergraph';
import { notificationDeps } from './notification-deps';
import { applyAutomaticNotification, AUTOMATIC_NOTIFICATION_EVENTS, AUTOMATIC_NOTIFICATIONS_QUEUE } from './services/automatic-notifications';
import { startTranslationWorker } from './services/translation-job';
import { parseNotificationSettings } from './settings';
import { NOTIFICATION_SURFACE } from './surface';

/** Notification: in-app notifications of members (by hand, from templates, from the platform's events, translated) and their live stream, mail templates. */
export const notificationModule = defineModule({
  contract: NOTIFICATION,
  defaultPort: 4005,
  entities: [InAppNotification, MailTemplate, V1Notification, V1Template, NotificationPreference],
  migrations: notificationMigrations,
  resolvers: [InAppNotificationResolver, TemplatedNotificationResolver, MailTemplateResolver, NotificationStreamResolver, V1NotificationResolver],
  services: notificationServices,
  settings: parseNotificationSettings,
  environment: [
    'TRANSLATE_URL', 'TRANSLATE_API_KEY', 'TRANSLATE_RETRY_LIMIT', 'TRANSLATE_RETRY_DELAY_SECONDS',
    'NOTIFY_RETRY_SCHEDULE', 'NOTIFY_CHANNEL_TIMEOUT_MS', 'NOTIFY_BATCH_SIZE', 'CHATAPP_NOTIFY_TEMPLATE_ID', 'CHATAPP_NOTIFY_WEBVIEW_PAGE', 'SMS_URL', 'SMS_API_KEY',
    'CHATAPP_API_URL', 'CHATAPP_APP_ID', 'CHATAPP_APP_SECRET', 'SMTP_URL', 'MAIL_FROM', 'PUBLIC_URL',
  ],
  deps: notificationDeps,
  supergraphOperations: NOTIFICATION_SUPERGRAPH_OPERATIONS,
  surface: NOTIFICATION_SURFACE,
  onStart: async (context) => {
    await startTranslationWorker(context);
    context.deps.sender.start();
  },
  consumers: [{ queue: AUTOMATIC_NOTIFICATIONS_QUEUE, events: AUTOMATIC_NOTIFICATION_EVENTS, apply: applyAutomaticNotification }],
  onStop: async ({ deps }) => {
    await deps.sender.stop();
    await deps.stream.stop();
  },
});
