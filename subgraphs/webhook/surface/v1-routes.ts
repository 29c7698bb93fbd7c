import { Route, V1_BASE } from '../../../core/rest/route';
import { arrayOf, boolean, integer, matching, nullable, object, oneOf, ref, string, timestamp } from '../../../core/rest/json-schema';
import { ALL_EVENTS } from '../services/public-event-table';
import { MAX_URL, SECRET } from '../services/webhook.service';

const BASE = `${V1_BASE}/webhooks`;

const WEBHOOK_FIELDS = 'id url events secret active status createdAt updatedAt';
const DELIVERY_FIELDS = 'id eventId eventType status attempts lastStatusCode lastError nextAttemptAt createdAt deliveredAt';

const WEBHOOK = object(
  {
    id: string({ description: 'whk_...' }),
    url: string(),
    events: arrayOf(string(), { description: 'Part 3 event types, or ["*"]' }),
    secret: string({ description: 'In full only in the answer that created the webhook; afterwards ****<last four>' }),
    active: boolean(),
    status: oneOf('active', 'failed', 'disabled'),
    created_at: timestamp(),
    updated_at: timestamp(),
  },
  ['id', 'url', 'events', 'secret', 'active', 'status', 'created_at'],
);
const DELIVERY = object(
  {
    id: string(),
    event_id: string({ description: 'The id of the event: the same on every attempt' }),
    event_type: string(),
    status: oneOf('pending', 'succeeded', 'failed', 'held'),
    attempts: integer({ minimum: 0 }),
    last_status_code: nullable(integer()),
    last_error: nullable(string()),
    next_attempt_at: nullable(timestamp()),
    created_at: timestamp(),
    delivered_at: nullable(timestamp()),
  },
  ['id', 'event_id', 'event_type', 'status', 'attempts', 'last_status_code', 'last_error', 'next_attempt_at', 'created_at', 'delivered_at'],
);
const EVENTS = arrayOf({ anyOf: [oneOf(ALL_EVENTS), ref('PublicEventType')] }, { description: 'Part 3 event types, or ["*"] alone', minItems: 1 });
const URL = string({ format: 'uri', maxLength: MAX_URL, description: 'https, on a public host (http and private addresses only with WEBHOOK_ALLOW_PRIVATE_TARGETS)' });

/** CONTRACT-v1 section 4, webhook management and the delivery log: admin scope, staff with webhook:manage (admin). */
export const V1_WEBHOOK_ROUTES: Route[] = [
  {
    method: 'post',
    path: BASE,
    document: `mutation V1CreateWebhook($input: CreateWebhookInput!) { createWebhook(input: $input) { ${WEBHOOK_FIELDS} } }`,
    envelope: 'v1',
    status: 201,
    scope: 'admin',
    credential: true,
    doc: {
      summary: 'Registers a webhook (https, a public host); the secret, generated unless given, is shown in full only in this answer',
      body: object({ url: URL, events: EVENTS, secret: nullable(matching(SECRET, { description: '16 to 256 printable ASCII characters, no spaces; generated when left out or null' })) }, ['url', 'events']),
      response: WEBHOOK,
    },
  },
  {
    method: 'get',
    path: BASE,
    document: `query V1Webhooks($page: Int, $limit: Int) { webhooks(page: $page, limit: $limit) { meta { page limit total } data { ${WEBHOOK_FIELDS} } } }`,
    envelope: 'v1List',
    scope: 'admin',
    doc: { summary: 'Webhooks, newest first', response: WEBHOOK },
  },
  {
    method: 'get',
    path: `${BASE}/:id`,
    document: `query V1Webhook($id: ID!) { webhook(id: $id) { ${WEBHOOK_FIELDS} } }`,
    envelope: 'v1',
    scope: 'admin',
    notFound: 'WEBHOOK_NOT_FOUND',
    doc: { summary: 'One webhook', response: WEBHOOK },
  },
  {
    method: 'patch',
    path: `${BASE}/:id`,
    document: `mutation V1UpdateWebhook($id: ID!, $input: UpdateWebhookInput!) { updateWebhook(id: $id, input: $input) { ${WEBHOOK_FIELDS} } }`,
    envelope: 'v1',
    scope: 'admin',
    notFound: 'WEBHOOK_NOT_FOUND',
    doc: {
      summary: 'Changes url, events or active: true re-activates (a failed webhook is sent its held deliveries), false switches it off (it receives and keeps nothing)',
      body: object({ url: nullable(URL), events: nullable(EVENTS), active: nullable(boolean()) }, [], { description: 'A field left out or null stays as it is' }),
      response: WEBHOOK,
    },
  },
  {
    method: 'delete',
    path: `${BASE}/:id`,
    document: `mutation V1DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }`,
    envelope: 'v1',
    status: 204,
    scope: 'admin',
    notFound: 'WEBHOOK_NOT_FOUND',
    doc: { summary: 'Deletes a webhook and its delivery log' },
  },
  {
    method: 'get',
    path: `${BASE}/:id/deliveries`,
    document: `query V1WebhookDeliveries($webhookId: ID!, $status: String, $page: Int, $limit: Int) {
    webhookDeliveries(webhookId: $webhookId, status: $status, page: $page, limit: $limit) { meta { page limit total } data { ${DELIVERY_FIELDS} } } }`,
    envelope: 'v1List',
    scope: 'admin',
    notFound: 'WEBHOOK_NOT_FOUND',
    doc: { summary: "A webhook's deliveries, newest first", query: { status: oneOf('pending', 'succeeded', 'failed', 'held') }, response: DELIVERY },
    variables: ({ params, query }) => ({ webhookId: params.id, status: query.status, page: query.page, limit: query.limit }),
  },
  {
    method: 'post',
    path: `${BASE}/:id/deliveries/:delivery_id/redeliver`,
    document: `mutation V1RedeliverWebhookDelivery($webhookId: ID!, $deliveryId: ID!) { redeliverWebhookDelivery(webhookId: $webhookId, deliveryId: $deliveryId) { ${DELIVERY_FIELDS} } }`,
    envelope: 'v1',
    status: 202,
    scope: 'admin',
    notFound: 'WEBHOOK_NOT_FOUND',
    doc: { summary: "Sends the delivery's event again, with the same id (409 INVALID_STATE when the webhook is not active or the delivery is pending)", body: object({}), response: DELIVERY },
    variables: ({ params }) => ({ webhookId: params.id, deliveryId: params.delivery_id }),
  },
];
