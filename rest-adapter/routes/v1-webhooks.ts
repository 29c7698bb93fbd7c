import { LegacyRoute } from './legacy';
import { V1_BASE } from '../../core/rest/route';
import { ALL_EVENTS } from '../../subgraphs/webhook/services/public-event-table';
import { MAX_URL, SECRET } from '../../subgraphs/webhook/services/webhook.service';
import { arrayOf, boolean, integer, matching, nullable, object, oneOf, ref, string, timestamp } from '../../core/rest/json-schema';

const BASE = `${V1_BASE}/webhooks`;

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
export const V1_WEBHOOK_ROUTES: LegacyRoute[] = [
  {
    method: 'post',
    path: BASE,
    operation: 'V1CreateWebhook',
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
    operation: 'V1Webhooks',
    envelope: 'v1List',
    scope: 'admin',
    doc: { summary: 'Webhooks, newest first', response: WEBHOOK },
  },
  {
    method: 'get',
    path: `${BASE}/:id`,
    operation: 'V1Webhook',
    envelope: 'v1',
    scope: 'admin',
    notFound: 'WEBHOOK_NOT_FOUND',
    doc: { summary: 'One webhook', response: WEBHOOK },
  },
  {
    method: 'patch',
    path: `${BASE}/:id`,
    operation: 'V1UpdateWebhook',
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
    operation: 'V1DeleteWebhook',
    envelope: 'v1',
    status: 204,
    scope: 'admin',
    notFound: 'WEBHOOK_NOT_FOUND',
    doc: { summary: 'Deletes a webhook and its delivery log' },
  },
  {
    method: 'get',
    path: `${BASE}/:id/deliveries`,
    operation: 'V1WebhookDeliveries',
    envelope: 'v1List',
    scope: 'admin',
    notFound: 'WEBHOOK_NOT_FOUND',
    doc: { summary: "A webhook's deliveries, newest first", query: { status: oneOf('pending', 'succeeded', 'failed', 'held') }, response: DELIVERY },
    variables: ({ params, query }) => ({ webhookId: params.id, status: query.status, page: query.page, limit: query.limit }),
  },
  {
    method: 'post',
    path: `${BASE}/:id/deliveries/:delivery_id/redeliver`,
    operation: 'V1RedeliverWebhookDelivery',
    envelope: 'v1',
    status: 202,
    scope: 'admin',
    notFound: 'WEBHOOK_NOT_FOUND',
    doc: { summary: "Sends the delivery's event again, with the same id (409 INVALID_STATE when the webhook is not active or the delivery is pending)", body: object({}), response: DELIVERY },
    variables: ({ params }) => ({ webhookId: params.id, deliveryId: params.delivery_id }),
  },
];
