import { EntityManager } from '@mikro-orm/postgresql';
import { RequestContext } from '../../core/context';
import { InAppNotificationService } from './services/in-app-notification.service';
import { NotificationStream } from './services/notification-stream';

/** What the notification domain holds for the life of its process: the members' live streams. */
export interface NotificationDeps {
  stream: NotificationStream;
}

/** The notification services of one request, on its unit of work. */
export function notificationServices(em: EntityManager, deps: NotificationDeps) {
  return {
    inApps: new InAppNotificationService(em),
    stream: deps.stream,
  };
}

export type NotificationContext = RequestContext<ReturnType<typeof notificationServices>>;
