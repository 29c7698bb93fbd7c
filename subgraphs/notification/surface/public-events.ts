import { v1Time } from '../../../core/rest/case';
import { PublicEvent } from '../../../core/rest/surface';
import { NOTIFICATION, NotificationDeliveryOutcome, NotificationSent } from '../contract';

/** The notification domain's events as Part 3 webhook events. */
export const NOTIFICATION_PUBLIC_EVENTS: PublicEvent[] = [
  {
    internal: NOTIFICATION.events.sent,
    type: 'notification.sent',
    data: (event: NotificationSent) => ({ notification_id: event.notificationId, title: event.title, channel: event.channel, total_recipients: event.totalRecipients, sent_at: v1Time(event.sentAt) }),
  },
  {
    internal: NOTIFICATION.events.delivered,
    type: 'notification.delivered',
    data: (event: NotificationDeliveryOutcome) => ({ notification_id: event.notificationId, customer_id: event.customerId, channel: event.channel, delivered_at: v1Time(event.occurredAt) }),
  },
  {
    internal: NOTIFICATION.events.failed,
    type: 'notification.failed',
    data: (event: NotificationDeliveryOutcome) => ({ notification_id: event.notificationId, customer_id: event.customerId, channel: event.channel, error: event.error, failed_at: v1Time(event.occurredAt) }),
  },
];
