import { defineModule } from '../../core/module';
import { notificationServices } from './context';
import { NOTIFICATION } from './contract';
import { InAppNotification } from './entities/in-app-notification';
import { notificationMigrations } from './migrations';
import { InAppNotificationResolver } from './resolvers/in-app-notification.resolver';
import { NotificationStreamResolver } from './resolvers/notification-stream.resolver';
import { TemplatedNotificationResolver } from './resolvers/templated-notification.resolver';
import { notificationDeps } from './notification-deps';
import { startTranslationWorker } from './services/translation-job';
import { parseNotificationSettings } from './settings';

/** Notification: in-app notifications of members (the live stream, mail templates and automatic notifications come later). */
export const notificationModule = defineModule({
  contract: NOTIFICATION,
  defaultPort: 4005,
  entities: [InAppNotification],
  migrations: notificationMigrations,
  resolvers: [InAppNotificationResolver, TemplatedNotificationResolver, NotificationStreamResolver],
  services: notificationServices,
  settings: parseNotificationSettings,
  environment: ['TRANSLATE_URL', 'TRANSLATE_API_KEY', 'TRANSLATE_RETRY_LIMIT', 'TRANSLATE_RETRY_DELAY_SECONDS'],
  deps: notificationDeps,
  onStart: startTranslationWorker,
  onStop: ({ deps }) => deps.stream.stop(),
});
