import { defineModule } from '../../core/module';
import { notificationServices } from './context';
import { NOTIFICATION } from './contract';
import { InAppNotification } from './entities/in-app-notification';
import { notificationMigrations } from './migrations';
import { InAppNotificationResolver } from './resolvers/in-app-notification.resolver';
import { NotificationStreamResolver } from './resolvers/notification-stream.resolver';
import { NotificationStream } from './services/notification-stream';

/** Notification: in-app notifications of members (the live stream, mail templates and automatic notifications come later). */
export const notificationModule = defineModule({
  contract: NOTIFICATION,
  defaultPort: 4005,
  entities: [InAppNotification],
  migrations: notificationMigrations,
  resolvers: [InAppNotificationResolver, NotificationStreamResolver],
  services: notificationServices,
  deps: ({ databaseUrl, orm, config, logger }) => ({
    stream: new NotificationStream(databaseUrl, orm, { perMember: config.streams.perMember, total: config.streams.maxOpen }, logger),
  }),
  onStop: ({ deps }) => deps.stream.stop(),
});
