import { NOTIFICATION } from '../../subgraphs/notification/contract';
import { memberOnly, Route, withPermission } from '../route';

const IN_APPS = '/notification/api/in-apps';
const NOTIFICATION_MANAGE = withPermission(NOTIFICATION.permissions.manage);

/**
 * Spec Part 2, notification service: Bearer on all; answers nest `data.message` and `data.data`. The
 * `/me` paths come before `/:id`, which would otherwise take `me` for an id.
 */
export const NOTIFICATION_ROUTES: Route[] = [
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
];
