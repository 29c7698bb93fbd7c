import { Route, V1_BASE } from '../../../core/rest/route';
import { boolean, id, matching, nullable, object, string, timestamp } from '../../../core/rest/json-schema';
import { HHMM } from '../services/notification-preference.service';

const PREFERENCES_PATH = `${V1_BASE}/customers/:id/notifications/preferences`;

const PREFERENCE_FIELDS = 'customerId channels { chatapp sms email } categories { promotions loyalty transactions campaigns } quietHours { enabled start end timezone } updatedAt';

const PREFERENCES = object(
  {
    customer_id: id(),
    channels: object({ chatapp: boolean(), sms: boolean(), email: boolean() }),
    categories: object({ promotions: boolean(), loyalty: boolean(), transactions: boolean(), campaigns: boolean() }),
    quiet_hours: object({ enabled: boolean(), start: string({ description: 'HH:MM' }), end: string({ description: 'HH:MM' }), timezone: nullable(string({ description: 'IANA zone; null: UTC' })) }),
    updated_at: nullable(timestamp()),
  },
  ['customer_id', 'channels', 'categories', 'quiet_hours'],
);

/**
 * Part 3 notification preferences (CONTRACT-v1 section 5): a customer reads and changes its own (staff
 * with notification:read read them; only admins change them for a customer).
 */
export const V1_PREFERENCE_ROUTES: Route[] = [
  {
    method: 'get',
    path: PREFERENCES_PATH,
    document: `query V1NotificationPreferences($customerId: ID!) { notificationPreferences(customerId: $customerId) { ${PREFERENCE_FIELDS} } }`,
    envelope: 'v1',
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    variables: ({ params }) => ({ customerId: params.id }),
    doc: { summary: "A customer's notification preferences (the defaults until changed)", response: PREFERENCES },
  },
  {
    method: 'patch',
    path: PREFERENCES_PATH,
    document: `mutation V1UpdateNotificationPreferences($customerId: ID!, $input: UpdateNotificationPreferencesInput!) {
    updateNotificationPreferences(customerId: $customerId, input: $input) { ${PREFERENCE_FIELDS} } }`,
    envelope: 'v1',
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    variables: ({ params, body }) => ({ customerId: params.id, input: body }),
    doc: {
      summary: "Changes some notification preferences (the customer itself, or an admin on the customer's request); absent keys stay",
      body: object(
        {
          channels: nullable(object({ chatapp: boolean(), sms: boolean(), email: boolean() }, [], { additionalProperties: false })),
          categories: nullable(object({ promotions: boolean(), loyalty: boolean(), transactions: boolean(), campaigns: boolean() }, [], { additionalProperties: false })),
          quiet_hours: nullable(
            object(
              { enabled: boolean(), start: matching(HHMM, { description: 'HH:MM' }), end: matching(HHMM, { description: 'HH:MM' }), timezone: nullable(string({ maxLength: 64, description: 'IANA time zone; null: UTC' })) },
              [],
              { additionalProperties: false },
            ),
          ),
        },
        [],
        { description: 'A key left out (or a group null) stays as it is' },
      ),
      response: PREFERENCES,
    },
  },
];
