/** The GraphQL documents behind the /notification/api/mail-templates routes; CI validates each against the supergraph. */

const MAIL_TEMPLATE_FIELDS = `id name version event subject_en subject_th subject_cn content_en content_th content_cn contentType defaultSenderId
  createdAt updatedAt`;
const RENDERED_FIELDS = 'templateId event version locale subject content contentType defaultSenderId';

export const MAIL_TEMPLATE_OPERATIONS = {
  MailTemplates: `query MailTemplates($page: Int, $limit: Int, $event: String, $version: String, $search: String) {
    mailTemplates(page: $page, limit: $limit, event: $event, version: $version, search: $search) {
      meta { page limit total totalPages } data { ${MAIL_TEMPLATE_FIELDS} } } }`,
  CreateMailTemplate: `mutation CreateMailTemplate($input: CreateMailTemplateInput!) { createMailTemplate(input: $input) { ${MAIL_TEMPLATE_FIELDS} } }`,
  MailTemplate: `query MailTemplate($id: ID!) { mailTemplate(id: $id) { ${MAIL_TEMPLATE_FIELDS} } }`,
  UpdateMailTemplate: `mutation UpdateMailTemplate($id: ID!, $input: UpdateMailTemplateInput!) { updateMailTemplate(id: $id, input: $input) { ${MAIL_TEMPLATE_FIELDS} } }`,
  DeleteMailTemplate: `mutation DeleteMailTemplate($id: ID!) { deleteMailTemplate(id: $id) { id } }`,
  RenderMailTemplateById: `query RenderMailTemplateById($id: ID!, $input: RenderMailInput) { renderMailTemplateById(id: $id, input: $input) { ${RENDERED_FIELDS} } }`,
};
