import { NOTIFICATION } from '../../subgraphs/notification/contract';
import { withPermission } from '../../core/rest/route';
import { LegacyRoute } from './legacy';

const MAIL_TEMPLATES = '/notification/api/mail-templates';
const NOTIFICATION_MANAGE = withPermission(NOTIFICATION.permissions.manage);

/** Spec Part 2, mail templates: the list as specified (paginated in `data`); create, read, update, delete and render beside it. */
export const MAIL_TEMPLATE_ROUTES: LegacyRoute[] = [
  { method: 'get', path: MAIL_TEMPLATES, operation: 'MailTemplates', envelope: 'data' },
  { method: 'post', path: MAIL_TEMPLATES, operation: 'CreateMailTemplate', authorize: NOTIFICATION_MANAGE, envelope: 'data', status: 201 },
  { method: 'get', path: `${MAIL_TEMPLATES}/:id`, operation: 'MailTemplate', envelope: 'data' },
  { method: 'put', path: `${MAIL_TEMPLATES}/:id`, operation: 'UpdateMailTemplate', authorize: NOTIFICATION_MANAGE, envelope: 'data' },
  { method: 'delete', path: `${MAIL_TEMPLATES}/:id`, operation: 'DeleteMailTemplate', authorize: NOTIFICATION_MANAGE, envelope: 'message', message: 'Mail template deleted' },
  { method: 'post', path: `${MAIL_TEMPLATES}/:id/render`, operation: 'RenderMailTemplateById', authorize: NOTIFICATION_MANAGE, envelope: 'data' },
];
