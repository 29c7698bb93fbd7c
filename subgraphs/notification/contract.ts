import { event } from '../../core/events/event-type';
import type { DomainContract } from '../../core/module';

/** The notification domain's contract: in-app notifications of members. Plain data, importable by any domain. */
export const NOTIFICATION = {
  name: 'notification',
  permissions: {
    manage: 'notification:manage',
    read: 'notification:read',
    /**
     * Changing a customer's notification preferences for them (their consent): granted to no role, so
     * admins only (support acting on the customer's request); customers change their own.
     */
    preferencesManage: 'notification:preferences:manage',
  },
  permissionScopes: { manage: 'write', read: 'read', preferencesManage: 'admin' },
  grants: {
    marketing: ['notification:manage', 'notification:read'],
    tenant: ['notification:read'],
  },
  events: {
    created: event<NotificationCreated>('notification.created'),
    read: event<NotificationRead>('notification.read'),
    sent: event<NotificationSent>('notification.sent'),
    delivered: event<NotificationDeliveryOutcome>('notification.delivered'),
    failed: event<NotificationDeliveryOutcome>('notification.failed'),
  },
} as const satisfies DomainContract;

/**
 * `notification.created`: an in-app notification was written for a member (aggregate: the member).
 * Carries every field of the notification, in all languages, for the member's live stream.
 */
export interface NotificationCreated {
  notificationId: string;
  memberId: string;
  type: string;
  pointSubtype: string | null;
  tierSubtype: string | null;
  format: string;
  title_en: string | null;
  title_th: string | null;
  title_cn: string | null;
  content_en: string | null;
  content_th: string | null;
  content_cn: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: string;
}

/**
 * `notification.read`: notifications of a member went from unread to read (aggregate: the member).
 * `notificationId` names the one notification, or is null when the member read all its unread
 * notifications at once (`updatedCount` of them, every one unread until `readAt`).
 */
export interface NotificationRead {
  memberId: string;
  notificationId: string | null;
  updatedCount: number;
  readAt: string;
}

/** `notification.sent`: a v1 notification began sending (aggregate: the notification). */
export interface NotificationSent {
  notificationId: string;
  title: string;
  channel: string;
  /** Recipients known when sending began (a segment's count then; the detail has the final number). */
  totalRecipients: number;
  sentAt: string;
}

/** `notification.delivered` / `notification.failed`: one recipient's outcome on one channel (aggregate: the customer). */
export interface NotificationDeliveryOutcome {
  notificationId: string;
  customerId: string;
  channel: string;
  /** Why it failed (null when delivered). */
  error: string | null;
  occurredAt: string;
}
