import type { DomainContract } from '../../core/module';

/** The notification domain's contract: in-app notifications of members. Plain data, importable by any domain. */
export const NOTIFICATION = {
  name: 'notification',
  permissions: {
    manage: 'notification:manage',
  },
  grants: {
    marketing: ['notification:manage'],
  },
  events: { created: 'notification.created', read: 'notification.read' },
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
