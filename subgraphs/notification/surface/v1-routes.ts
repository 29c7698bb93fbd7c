import { Route, V1_BASE } from '../../../core/rest/route';
import { conflictOnField, notFoundByField } from '../../../core/rest/failures';
import { arrayOf, id, integer, matching, NOT_BLANK, nullable, object, oneOf, string, timestamp } from '../../../core/rest/json-schema';
import { V1_CATEGORIES, V1_CHANNELS, V1_PRIORITIES } from '../entities/v1-notification';
import { MAX_CUSTOMER_IDS, MAX_URL } from '../services/v1-notification.service';
import { MAX_BODY, MAX_TITLE, MAX_VARIABLES, NAME, VARIABLE } from '../services/v1-template.service';

const BASE = `${V1_BASE}/notifications`;
const CHANNELS = V1_CHANNELS;
const CATEGORIES = V1_CATEGORIES;

const NOTIFICATION_FIELDS = `id title body image actionUrl channel priority category templateName segmentId status totalRecipients delivered failed skipped opened clicked note
  createdAt sentAt completedAt scheduledAt`;
const SENT_FIELDS = 'notificationId status totalRecipients scheduledAt';
const TEMPLATE_FIELDS = 'id name title body channel variables createdAt updatedAt';

const NOTIFICATION = object(
  {
    id: id(),
    title: string(),
    body: string(),
    image: nullable(string()),
    action_url: nullable(string({ description: 'As given; recipients get a tracked link to it' })),
    channel: oneOf(...CHANNELS),
    priority: oneOf(...V1_PRIORITIES),
    category: nullable(oneOf(...CATEGORIES)),
    template_name: nullable(string()),
    segment_id: nullable(id()),
    status: oneOf('scheduled', 'sending', 'completed'),
    total_recipients: integer(),
    delivered: integer(),
    failed: integer(),
    skipped: integer({ description: 'Recipients who turned the channel or category off' }),
    opened: integer({ description: 'In-app copies read, and tracked links followed' }),
    clicked: integer({ description: 'Tracked links followed (once per recipient)' }),
    note: nullable(string()),
    created_at: timestamp(),
    sent_at: nullable(timestamp()),
    completed_at: nullable(timestamp()),
    scheduled_at: nullable(timestamp()),
  },
  ['id', 'title', 'body', 'status', 'total_recipients', 'delivered', 'failed', 'opened', 'clicked', 'created_at', 'sent_at', 'completed_at', 'scheduled_at'],
);
const SENT = object(
  { notification_id: id(), status: oneOf('scheduled', 'sending'), total_recipients: integer({ description: "A segment's members now; final once sending ran" }), scheduled_at: nullable(timestamp()) },
  ['notification_id', 'status', 'total_recipients', 'scheduled_at'],
);
const URL = nullable(string({ format: 'uri', maxLength: MAX_URL, description: 'http(s)' }));
const TITLE = string({ ...NOT_BLANK, maxLength: MAX_TITLE, description: 'Without a template only' });
const BODY = string({ ...NOT_BLANK, maxLength: MAX_BODY, description: 'Without a template only' });
const CHANNEL = oneOf(...CHANNELS);
const TEMPLATE_NAME = string({ description: 'A template name: title and body come from it' });
/** What a send says, and how: its own title, body and channel, or a template's (channel: the template's unless given). */
const MESSAGE_FIELDS = {
  title: nullable(TITLE),
  body: nullable(BODY),
  image: URL,
  action_url: { ...URL, description: 'Sent as a tracked link' },
  channel: nullable(CHANNEL),
  priority: nullable(oneOf(...V1_PRIORITIES)),
  category: nullable(oneOf(...CATEGORIES)),
  schedule_at: nullable(timestamp({ description: 'With a time zone, at most a year ahead; left out or null: now' })),
  template: nullable(TEMPLATE_NAME),
  variables: nullable(object({}, [], { additionalProperties: { type: ['string', 'number', 'boolean'] }, description: 'With a template: every variable it declares, and no other' })),
};
const MESSAGE = { anyOf: [{ required: ['title', 'body', 'channel'], properties: { title: TITLE, body: BODY, channel: CHANNEL } }, { required: ['template'], properties: { template: TEMPLATE_NAME } }] };
const TEMPLATE = object(
  { id: id(), name: string(), title: string(), body: string(), channel: oneOf(...CHANNELS), variables: arrayOf(string()), created_at: timestamp(), updated_at: timestamp() },
  ['id', 'name', 'title', 'body', 'channel', 'variables', 'created_at'],
);
/** The template's variables are the caller's own names: passed as sent, not camel-cased. */
const sendVariables = ({ body, rawBody }: { body: Record<string, unknown>; rawBody?: Record<string, unknown> }) => ({
  input: { ...body, ...(rawBody?.variables !== undefined ? { variables: rawBody.variables } : {}) },
});

/**
 * Part 3 notifications (CONTRACT-v1 section 5): sends need `write` and notification:manage (marketing,
 * admin) and answer 202 at once; staff read with notification:read. The tracked link is public.
 */
export const V1_NOTIFICATION_ROUTES: Route[] = [
  {
    method: 'post',
    path: `${BASE}/send`,
    document: `mutation V1SendNotification($input: SendNotificationInput!, $idempotencyKey: String) {
    sendNotification(input: $input, idempotencyKey: $idempotencyKey) { ${SENT_FIELDS} } }`,
    envelope: 'v1',
    status: 202,
    idempotent: true,
    notFound: 'CUSTOMER_NOT_FOUND',
    v1Failure: notFoundByField({ template: 'TEMPLATE_NOT_FOUND' }),
    variables: sendVariables,
    doc: {
      summary: 'Sends a notification to customers, now or at schedule_at (202: the job sends it in batches)',
      body: object({ customer_ids: arrayOf(id({ format: 'uuid' }), { minItems: 1, maxItems: MAX_CUSTOMER_IDS }), ...MESSAGE_FIELDS }, ['customer_ids'], MESSAGE),
      response: SENT,
    },
  },
  {
    method: 'post',
    path: `${BASE}/send-to-segment`,
    document: `mutation V1SendNotificationToSegment($input: SendNotificationInput!, $idempotencyKey: String) {
    sendNotificationToSegment(input: $input, idempotencyKey: $idempotencyKey) { ${SENT_FIELDS} } }`,
    envelope: 'v1',
    status: 202,
    idempotent: true,
    notFound: 'SEGMENT_NOT_FOUND',
    v1Failure: notFoundByField({ template: 'TEMPLATE_NOT_FOUND' }),
    variables: sendVariables,
    doc: {
      summary: "Sends a notification to a segment's members (resolved when sending begins), now or at schedule_at",
      body: object({ segment_id: id({ minLength: 1 }), ...MESSAGE_FIELDS }, ['segment_id'], MESSAGE),
      response: SENT,
    },
  },
  {
    method: 'get',
    path: BASE,
    document: `query V1Notifications($status: String, $channel: String, $dateFrom: String, $dateTo: String, $page: Int, $limit: Int) {
    v1Notifications(status: $status, channel: $channel, dateFrom: $dateFrom, dateTo: $dateTo, page: $page, limit: $limit) { meta { page limit total } data { ${NOTIFICATION_FIELDS} } } }`,
    envelope: 'v1List',
    doc: {
      summary: 'Notifications, newest first, with their counters',
      query: { status: oneOf('scheduled', 'sending', 'completed'), channel: oneOf(...CHANNELS), date_from: string({ description: 'created at or after' }), date_to: string({ description: 'created at or before (a bare date covers its day)' }) },
      response: NOTIFICATION,
    },
  },
  {
    method: 'get',
    path: `${BASE}/templates`,
    document: `query V1NotificationTemplates($page: Int, $limit: Int) { v1NotificationTemplates(page: $page, limit: $limit) { meta { page limit total } data { ${TEMPLATE_FIELDS} } } }`,
    envelope: 'v1List',
    doc: { summary: 'Notification templates by name', response: TEMPLATE },
  },
  {
    method: 'post',
    path: `${BASE}/templates`,
    document: `mutation V1CreateNotificationTemplate($input: CreateV1TemplateInput!) { createV1NotificationTemplate(input: $input) { ${TEMPLATE_FIELDS} } }`,
    envelope: 'v1',
    status: 201,
    v1Failure: conflictOnField('DUPLICATE'),
    doc: {
      summary: 'Creates a template; every {{variable}} of title and body must be declared in variables (409 DUPLICATE on a name in use)',
      body: object(
        {
          name: matching(NAME, { description: 'letters, digits, ".", "-" or "_"' }),
          title: string({ ...NOT_BLANK, maxLength: MAX_TITLE }),
          body: string({ ...NOT_BLANK, maxLength: MAX_BODY }),
          channel: oneOf(...CHANNELS),
          variables: nullable(arrayOf(matching(VARIABLE), { maxItems: MAX_VARIABLES, uniqueItems: true })),
        },
        ['name', 'title', 'body', 'channel'],
      ),
      response: TEMPLATE,
    },
  },
  {
    method: 'get',
    path: `${BASE}/track/:deliveryId`,
    document: `mutation V1TrackNotificationClick($deliveryId: ID!, $signature: String!) { trackNotificationClick(deliveryId: $deliveryId, signature: $signature) }`,
    envelope: 'v1',
    public: true,
    notFound: 'NOTIFICATION_NOT_FOUND',
    variables: ({ params, query }) => ({ deliveryId: params.deliveryId, signature: typeof query.sig === 'string' ? query.sig : '' }),
    redirect: (payload) => String(payload),
    doc: { summary: "A recipient's tracked link: counts the click, then 302 to the notification's action_url", query: { sig: string() } },
  },
  {
    method: 'get',
    path: `${BASE}/:id`,
    document: `query V1Notification($id: ID!) { v1Notification(id: $id) { ${NOTIFICATION_FIELDS} } }`,
    envelope: 'v1',
    notFound: 'NOTIFICATION_NOT_FOUND',
    doc: { summary: 'One notification with its delivery counters', response: NOTIFICATION },
  },
];
