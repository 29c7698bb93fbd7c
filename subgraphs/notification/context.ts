import { EntityManager } from '@mikro-orm/postgresql';
import { RequestContext } from '../../core/context';
import { InAppNotificationService } from './services/in-app-notification.service';
import { MailTemplateService } from './services/mail-template.service';

/** The notification services of one request, on its unit of work. */
export function notificationServices(em: EntityManager) {
  return {
    inApps: new InAppNotificationService(em),
    mailTemplates: new MailTemplateService(em),
  };
}

export type NotificationContext = RequestContext<ReturnType<typeof notificationServices>>;
