import { EventStream } from '../../../core/rest/event-stream';
import { IN_APP_FIELDS, IN_APPS } from './in-app-routes';

/** One event of `myNotificationEvents`, as the document selects it. */
interface NotificationStreamEvent {
  id: string | null;
  type: 'connected' | 'new_notification' | 'notification_read';
  timestamp: string;
  notification: Record<string, unknown> | null;
  read: { notificationId: string | null; updatedCount: number; readAt: string } | null;
}

/** The locale the client asked its notifications in, as every event says it. */
const localeOf = (variables: Record<string, unknown>): string | null => (variables.locale as string | undefined) ?? null;

/**
 * Spec Part 2, Events: GET /notification/api/in-apps/me/events (`locale`, `Last-Event-ID`), the member's
 * notification stream. It opens with `connected`; each event then says its `type`, the notification or
 * what was read under `data`, the time and the locale.
 */
export const IN_APP_STREAM: EventStream<NotificationStreamEvent> = {
  path: `${IN_APPS}/me/events`,
  document: `subscription MyNotificationEvents($locale: Locale, $lastEventId: String) {
    myNotificationEvents(locale: $locale, lastEventId: $lastEventId) { id type timestamp notification { ${IN_APP_FIELDS} } read { notificationId updatedCount readAt } } }`,
  variables: ({ query, lastEventId }) => ({ locale: query.locale, lastEventId }),
  name: 'notification stream',
  connected: (first, variables) =>
    first.type === 'connected' ? { type: 'connected', message: 'Connected to the notification stream', timestamp: first.timestamp, locale: localeOf(variables) } : undefined,
  event: (event, variables) => ({
    id: event.id,
    data: { type: event.type, data: event.type === 'new_notification' ? event.notification : event.read, timestamp: event.timestamp, locale: localeOf(variables) },
  }),
  heartbeat: (variables) => ({ type: 'heartbeat', timestamp: new Date().toISOString(), locale: localeOf(variables) }),
};
