import { EntityManager } from '@mikro-orm/postgresql';
import { RequestContext } from '../../core/context';
import { NotificationDeps } from './notification-deps';
import { InAppNotificationService } from './services/in-app-notification.service';
import { MailTemplateService } from './services/mail-template.service';
import { NotificationPreferenceService } from './services/notification-preference.service';
import { TemplatedNotificationService } from './services/templated-notification.service';
import { V1NotificationService } from './services/v1-notification.service';
import { V1TemplateService } from './services/v1-template.service';
import { EngagementService } from './services/engagement.service';

/** The notification services of one request, on its unit of work. */
export function notificationServices(em: EntityManager, deps?: NotificationDeps) {
  const inApps = new InAppNotificationService(em, deps?.translator);
  const v1Templates = new V1TemplateService(em);
  return {
    inApps,
    templated: new TemplatedNotificationService(inApps),
    mailTemplates: new MailTemplateService(em),
    /** The members' live streams of this process (none without the module's deps). */
    stream: deps?.stream,
    v1Templates,
    v1Notifications: new V1NotificationService(em, v1Templates, deps?.supergraph, deps?.sender.kick),
    preferences: new NotificationPreferenceService(em, deps?.supergraph),
    engagement: new EngagementService(em, deps?.tracking),
  };
}

export type NotificationContext = RequestContext<ReturnType<typeof notificationServices>>;
