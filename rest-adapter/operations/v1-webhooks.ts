/** The GraphQL documents behind the /api/v1 webhook routes; CI validates each against the supergraph. */

const WEBHOOK = 'id url events secret active status createdAt updatedAt';
const DELIVERY = 'id eventId eventType status attempts lastStatusCode lastError nextAttemptAt createdAt deliveredAt';

export const V1_WEBHOOK_OPERATIONS = {
  V1CreateWebhook: `mutation V1CreateWebhook($input: CreateWebhookInput!) { createWebhook(input: $input) { ${WEBHOOK} } }`,
  V1Webhooks: `query V1Webhooks($page: Int, $limit: Int) { webhooks(page: $page, limit: $limit) { meta { page limit total } data { ${WEBHOOK} } } }`,
  V1Webhook: `query V1Webhook($id: ID!) { webhook(id: $id) { ${WEBHOOK} } }`,
  V1UpdateWebhook: `mutation V1UpdateWebhook($id: ID!, $input: UpdateWebhookInput!) { updateWebhook(id: $id, input: $input) { ${WEBHOOK} } }`,
  V1DeleteWebhook: `mutation V1DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }`,
  V1WebhookDeliveries: `query V1WebhookDeliveries($webhookId: ID!, $status: String, $page: Int, $limit: Int) {
    webhookDeliveries(webhookId: $webhookId, status: $status, page: $page, limit: $limit) { meta { page limit total } data { ${DELIVERY} } } }`,
  V1RedeliverWebhookDelivery: `mutation V1RedeliverWebhookDelivery($webhookId: ID!, $deliveryId: ID!) { redeliverWebhookDelivery(webhookId: $webhookId, deliveryId: $deliveryId) { ${DELIVERY} } }`,
};
