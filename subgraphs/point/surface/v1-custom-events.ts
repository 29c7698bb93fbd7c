import { validationError } from '../../../core/errors';
import { customerIdOf } from '../../../core/rest/path-ids';
import { arrayOf, boolean, id, integer, nullable, object, oneOf, record, string, timestamp } from '../../../core/rest/json-schema';
import { ATTRIBUTE_KINDS } from '../services/earning-rules/rule-definition';
import { EVENT_NAME, MAX_ATTRIBUTES } from '../services/earning-rules/event-attributes';

/** A JSON object a v1 caller sent as it was spelled (`attributes` are named by the retailer: never re-cased); 400 when it is something else. */
export function rawObject(rawBody: Record<string, unknown> | undefined, field: string): Record<string, unknown> | null | undefined {
  const value = rawBody?.[field];
  if (value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value))) throw validationError([{ field, message: `${field} is a JSON object` }]);
  return value as Record<string, unknown> | null | undefined;
}

/** The variables of an event type's creation or change: its attributes as spelled. */
export const eventTypeVariables = (body: Record<string, unknown>, rawBody: Record<string, unknown> | undefined, name?: string) => ({
  ...(name === undefined ? {} : { name }),
  input: { ...(name === undefined ? { name: body.name } : {}), description: body.description, attributes: rawObject(rawBody, 'attributes') },
});

/** The variables of a custom event: its attributes as spelled. */
export const customEventVariables = (body: Record<string, unknown>, rawBody: Record<string, unknown> | undefined) => ({
  input: { type: body.type, customerId: body.customerId, eventId: body.eventId, occurredAt: body.occurredAt, attributes: rawObject(rawBody, 'attributes') },
});

/** A customer's events query: the path's customer, `type`, `date_from`, `date_to`, `page`, `limit`. */
export const customerEventVariables = (params: Record<string, string>, query: Record<string, unknown>) => ({
  memberId: customerIdOf(params),
  type: query.type,
  dateFrom: query.dateFrom,
  dateTo: query.dateTo,
  page: query.page,
  limit: query.limit,
});

/** An event as the point subgraph answers it. */
export interface CustomEventRecord {
  id: string;
  memberId: string;
  pointsEarned: number;
  applications: Array<{ ruleId: string; ruleVersion: number; points: number }>;
  [field: string]: unknown;
}

/** An event as v1 answers it: whole points, the rules that gave them. */
export const customEventOf = ({ memberId, pointsEarned, applications, ...event }: CustomEventRecord) => ({
  ...event,
  customerId: memberId,
  pointsEarned: Math.trunc(pointsEarned),
  rules: applications.map((application) => ({ ruleId: application.ruleId, version: application.ruleVersion, points: Math.trunc(application.points) })),
});

const ATTRIBUTE_NAME = `lowercase letters, digits and _, starting with a letter, at most 64 (${EVENT_NAME.source})`;

export const EVENT_TYPE_BODY = object(
  {
    name: string({ pattern: EVENT_NAME.source, description: ATTRIBUTE_NAME }),
    description: nullable(string({ maxLength: 2000 })),
    attributes: nullable(
      object({}, [], {
        description: `At most ${MAX_ATTRIBUTES} attributes by name (${ATTRIBUTE_NAME}): {type: ${ATTRIBUTE_KINDS.join('|')}, required}`,
        additionalProperties: object({ type: oneOf(...ATTRIBUTE_KINDS), required: boolean() }, ['type']),
      }),
    ),
  },
  ['name'],
);

export const EVENT_TYPE = record({
  id: id(),
  name: string(),
  description: nullable(string()),
  attributes: object({}, [], { additionalProperties: object({ type: oneOf(...ATTRIBUTE_KINDS), required: boolean() }, ['type']) }),
  created_at: timestamp(),
  updated_at: timestamp(),
});

export const CUSTOM_EVENT_BODY = object(
  {
    type: string({ minLength: 1, maxLength: 64, description: 'a declared event type' }),
    customer_id: id(),
    event_id: string({ minLength: 1, maxLength: 256, description: "the sender's own id: the same id again answers the first event and earns nothing" }),
    occurred_at: nullable(timestamp({ description: 'not in the future; now unless given' })),
    attributes: nullable(object({}, [], { description: 'as the type declares them', additionalProperties: true })),
  },
  ['type', 'customer_id', 'event_id'],
);

export const CUSTOM_EVENT = record({
  id: id(),
  type: string(),
  customer_id: id(),
  event_id: string(),
  occurred_at: timestamp(),
  attributes: object({}, [], { additionalProperties: true }),
  points_earned: integer({ description: 'what the earning rules gave it' }),
  rules: arrayOf(record({ rule_id: id(), version: integer(), points: integer() })),
  created_at: timestamp(),
});

