import { Route, withPermission } from '../../../core/rest/route';
import { NOTIFICATION } from '../contract';

const MAIL_TEMPLATES = '/notification/api/mail-templates';
const NOTIFICATION_MANAGE = withPermission(NOTIFICATION.permissions.manage);

const MAIL_TEMPLATE_FIELDS = `id name version event subject_en subject_th subject_cn content_en content_th content_cn contentType defaultSenderId
  createdAt updatedAt`;
const RENDERED_FIELDS = 'templateId event version locale subject content contentType defaultSenderId';

/** Spec Part 2, mail templates: the list as specified (paginated in `data`); create, read, update, delete and render beside it. */
export const MAIL_TEMPLATE_ROUTES: Route[] = [
  {
    method: 'get',
    path: MAIL_TEMPLATES,
    document: `query MailTemplates($page: Int, $limit: Int, $event: String, $version: String, $search: String) {
    mailTemplates(page: $page, limit: $limit, event: $event, version: $version, search: $search) {
      meta { page limit total totalPages } data { ${MAIL_TEMPLATE_FIELDS} } } }`,
    envelope: 'data',
  },
  {
    method: 'post',
    path: MAIL_TEMPLATES,
    document: `mutation CreateMailTemplate($input: CreateMailTemplateInput!) { createMailTemplate(input: $input) { ${MAIL_TEMPLATE_FIELDS} } }`,
    authorize: NOTIFICATION_MANAGE,
    envelope: 'data',
    status: 201,
  },
  {
    method: 'get',
    path: `${MAIL_TEMPLATES}/:id`,
    document: `query MailTemplate($id: ID!) { mailTemplate(id: $id) { ${MAIL_TEMPLATE_FIELDS} } }`,
    envelope: 'data',
  },
  {
    method: 'put',
    path: `${MAIL_TEMPLATES}/:id`,
    document: `mutation UpdateMailTemplate($id: ID!, $input: UpdateMailTemplateInput!) { updateMailTemplate(id: $id, input: $input) { ${MAIL_TEMPLATE_FIELDS} } }`,
    authorize: NOTIFICATION_MANAGE,
    envelope: 'data',
  },
  {
    method: 'delete',
    path: `${MAIL_TEMPLATES}/:id`,
    document: `mutation DeleteMailTemplate($id: ID!) { deleteMailTemplate(id: $id) { id } }`,
    authorize: NOTIFICATION_MANAGE,
    envelope: 'message',
    message: 'Mail template deleted',
  },
  {
    method: 'post',
    path: `${MAIL_TEMPLATES}/:id/render`,
    document: `query RenderMailTemplateById($id: ID!, $input: RenderMailInput) { renderMailTemplateById(id: $id, input: $input) { ${RENDERED_FIELDS} } }`,
    authorize: NOTIFICATION_MANAGE,
    envelope: 'data',
  },
];
