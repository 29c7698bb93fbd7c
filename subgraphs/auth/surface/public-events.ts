import { toV1 } from '../../../core/rest/case';
import { PublicEvent } from '../../../core/rest/surface';
import { AUTH } from '../contract';

/** Producer-shaped already (Part 3's snake_case): the customer events, with v1 timestamps. */
const asIs = (payload: object) => toV1(payload) as Record<string, unknown>;

/** The auth domain's events as Part 3 webhook events. */
export const AUTH_PUBLIC_EVENTS: PublicEvent[] = [
  { internal: AUTH.events.customerCreated, type: 'customer.created', data: asIs },
  { internal: AUTH.events.customerUpdated, type: 'customer.updated', data: asIs },
  { internal: AUTH.events.customerDeleted, type: 'customer.deleted', data: asIs },
];
