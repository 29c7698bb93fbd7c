import { conflictOnField } from '../../../core/rest/failures';
import { dateQuery, ref, string } from '../../../core/rest/json-schema';
import { Route, V1_BASE } from '../../../core/rest/route';
import { CUSTOM_EVENT_BODY, customerEventVariables, customEventOf, CustomEventRecord, customEventVariables, EVENT_TYPE_BODY, eventTypeVariables } from './v1-custom-events';

const TYPES = `${V1_BASE}/events/types`;
const TYPE = 'id name description attributes createdAt updatedAt';
const EVENT = 'id type memberId eventId occurredAt attributes pointsEarned applications { ruleId ruleVersion points } createdAt';
const TYPE_NOT_FOUND = 'EVENT_TYPE_NOT_FOUND';

/**
 * Custom events (issue 29): event types an admin declares (`admin` to write, `read` to read), events the
 * retailer's systems send (`write`; once per sender and `event_id`), and a customer's events (a customer
 * token reads its own).
 */
export const V1_CUSTOM_EVENT_ROUTES: Route[] = [
  {
    method: 'get',
    path: TYPES,
    document: `query V1CustomEventTypes($page: Int, $limit: Int) { customEventTypes(page: $page, limit: $limit) { meta { page limit total } data { ${TYPE} } } }`,
    envelope: 'v1List',
    doc: { summary: 'Declared custom event types, by name', response: ref('CustomEventType') },
  },
  {
    method: 'post',
    path: TYPES,
    document: `mutation V1CreateCustomEventType($input: CustomEventTypeInput!) { createCustomEventType(input: $input) { ${TYPE} } }`,
    envelope: 'v1',
    status: 201,
    scope: 'admin',
    doc: { summary: 'Declares a custom event type and its attributes (409 DUPLICATE when the name is taken)', body: EVENT_TYPE_BODY, response: ref('CustomEventType') },
    variables: ({ body, rawBody }) => eventTypeVariables(body, rawBody),
    v1Failure: conflictOnField('DUPLICATE'),
  },
  {
    method: 'get',
    path: `${TYPES}/:name`,
    document: `query V1CustomEventType($name: String!) { customEventType(name: $name) { ${TYPE} } }`,
    envelope: 'v1',
    notFound: TYPE_NOT_FOUND,
    doc: { summary: 'One custom event type', response: ref('CustomEventType') },
  },
  {
    method: 'patch',
    path: `${TYPES}/:name`,
    document: `mutation V1UpdateCustomEventType($name: String!, $input: CustomEventTypePatch!) { updateCustomEventType(name: $name, input: $input) { ${TYPE} } }`,
    envelope: 'v1',
    scope: 'admin',
    notFound: TYPE_NOT_FOUND,
    doc: {
      summary: 'Changes the description or replaces the attributes (409 INVALID_STATE when a live rule tests an attribute the change removes or retypes)',
      body: { ...EVENT_TYPE_BODY, required: undefined, properties: { ...(EVENT_TYPE_BODY.properties as object), name: undefined } },
      response: ref('CustomEventType'),
    },
    variables: ({ params, body, rawBody }) => eventTypeVariables(body, rawBody, params.name),
  },
  {
    method: 'delete',
    path: `${TYPES}/:name`,
    document: `mutation V1DeleteCustomEventType($name: String!) { deleteCustomEventType(name: $name) { id } }`,
    envelope: 'v1',
    status: 204,
    scope: 'admin',
    notFound: TYPE_NOT_FOUND,
    doc: { summary: 'Deletes a custom event type (409 INVALID_STATE while a live rule reacts to it)' },
  },
  {
    method: 'post',
    path: `${V1_BASE}/events`,
    document: `mutation V1RecordCustomEvent($input: CustomEventInput!) { recordCustomEvent(input: $input) { ${EVENT} } }`,
    envelope: 'v1',
    status: 201,
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: {
      summary: "Records what a customer did, once per sender and event_id (a repeat answers the first; another type or customer under the same id is 409 DUPLICATE), with the points its type's earning rules give",
      body: CUSTOM_EVENT_BODY,
      response: ref('CustomEvent'),
    },
    variables: ({ body, rawBody }) => customEventVariables(body, rawBody),
    payload: ({ recordCustomEvent }) => customEventOf(recordCustomEvent as CustomEventRecord),
    v1Failure: conflictOnField('DUPLICATE'),
  },
  {
    method: 'get',
    path: `${V1_BASE}/customers/:id/events`,
    document: `query V1CustomerEvents($memberId: ID!, $page: Int, $limit: Int, $type: String, $dateFrom: String, $dateTo: String) {
    member(id: $memberId) { id }
    events: memberCustomEvents(memberId: $memberId, page: $page, limit: $limit, type: $type, dateFrom: $dateFrom, dateTo: $dateTo) {
      meta { page limit total } data { ${EVENT} } } }`,
    envelope: 'v1List',
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: {
      summary: "A customer's custom events, newest first",
      query: { type: string(), date_from: dateQuery('at or after'), date_to: dateQuery('at or before (a bare date covers its day)') },
      response: ref('CustomEvent'),
    },
    variables: ({ params, query }) => customerEventVariables(params, query),
    payload: ({ events }) => ({ ...events, data: events.data.map((event: CustomEventRecord) => customEventOf(event)) }),
  },
];
