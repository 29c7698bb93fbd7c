import { NOTIFICATION } from '../../subgraphs/notification/contract';
import { memberOnly, withPermission } from '../../core/rest/route';
import { LegacyRoute } from './legacy';

const IN_APPS = '/notification/api/in-apps';
const NOTIFICATION_MANAGE = withPermission(NOTIFICATION.permissions.manage);

/** The convenience endpoints' paths under /in-apps, each with its template (the InAppNotificationTemplate enum). */
const TEMPLATE_PATHS: Record<string, string> = {
  'points/received': 'points_received',
  'points/receipt-error': 'points_receipt_error',
  'points/receipt-processing': 'points_receipt_processing',
  'points/nearly-expire': 'points_nearly_expire',
  'points/expired': 'points_expired',
  'tier/upgraded-enhanced': 'tier_upgraded_enhanced',
  'tier/adjusted': 'tier_adjusted',
  'tier/renewal-reminder': 'tier_renewal_reminder',
  'badge/unlocked': 'badge_unlocked',
  'badge/progress': 'badge_progress',
  'promotion/create': 'promotion_create',
  'news/create': 'news_create',
};

/**
 * The convenience endpoints (POST /in-apps/points/received and the eleven like it): the body is
 * `memberId` and the fields of the kind, sent as the mutation's `fields`.
 */
const TEMPLATE_ROUTES: LegacyRoute[] = Object.entries(TEMPLATE_PATHS).map(([path, template]) => ({
  method: 'post',
  path: `${IN_APPS}/${path}`,
  operation: 'CreateTemplatedInAppNotification',
  variables: ({ body }) => {
    const { memberId, ...fields } = body;
    return { template, input: { memberId, fields } };
  },
  authorize: NOTIFICATION_MANAGE,
  envelope: 'nested',
  message: 'Notification created',
  status: 201,
}));

/**
 * Spec Part 2, notification service: Bearer on all; answers nest `data.message` and `data.data`. The
 * `/me` paths come before `/:id`, which would otherwise take `me` for an id.
 */
export const NOTIFICATION_ROUTES: LegacyRoute[] = [
  { method: 'post', path: IN_APPS, operation: 'CreateInAppNotification', authorize: NOTIFICATION_MANAGE, envelope: 'nested', message: 'Notification created', status: 201 },
  { method: 'get', path: IN_APPS, operation: 'InAppNotifications', envelope: 'nested', message: 'Notifications' },
  { method: 'get', path: `${IN_APPS}/me`, operation: 'MyInAppNotifications', envelope: 'nested', message: 'Notifications' },
  { method: 'get', path: `${IN_APPS}/me/recent`, operation: 'MyRecentInAppNotifications', envelope: 'nested', message: 'Recent notifications' },
  { method: 'get', path: `${IN_APPS}/me/unread-count`, operation: 'MyUnreadInAppNotificationCount', envelope: 'nested', message: 'Unread notifications' },
  {
    method: 'patch',
    path: `${IN_APPS}/me/read-all`,
    operation: 'MarkAllMyInAppNotificationsRead',
    authorize: memberOnly,
    envelope: 'nested',
    message: 'Notifications marked read',
  },
  { method: 'get', path: `${IN_APPS}/:id`, operation: 'InAppNotification', envelope: 'nested', message: 'Notification found' },
  { method: 'put', path: `${IN_APPS}/:id`, operation: 'UpdateInAppNotification', authorize: NOTIFICATION_MANAGE, envelope: 'nested', message: 'Notification updated' },
  {
    method: 'patch',
    path: `${IN_APPS}/:id/read`,
    operation: 'MarkInAppNotificationRead',
    variables: ({ params, body }) => ({ id: params.id, read: body.read }),
    envelope: 'nested',
    message: (data) => (data.markInAppNotificationRead.readAt ? 'Notification marked read' : 'Notification marked unread'),
  },
  { method: 'delete', path: `${IN_APPS}/:id`, operation: 'DeleteInAppNotification', authorize: NOTIFICATION_MANAGE, envelope: 'message', message: 'Notification deleted' },
  ...TEMPLATE_ROUTES,
];
