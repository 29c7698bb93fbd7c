import { EntityManager } from '@mikro-orm/postgresql';
import { RequestContext } from '../../core/context';
import { NotificationDeps } from './notification-deps';
import { InAppNotificationService } from './services/in-app-notification.service';
import { MailTemplateService } from './services/mail-template.service';
import { TemplatedNotificationService } from './services/templated-notification.service';

/** The notification services of one request, on its unit of work. */
export function notificationServices(em: EntityManager, deps?: NotificationDeps) {
  const inApps = new InAppNotificationService(em, deps?.translator);
  return {
    inApps,
    templated: new TemplatedNotificationService(inApps),
    mailTemplates: new MailTemplateService(em),
    /** The members' live streams of this process (none without the module's deps). */
    stream: deps?.stream,
  };
}

export type NotificationContext = RequestContext<ReturnType<typeof notificationServices>>;
