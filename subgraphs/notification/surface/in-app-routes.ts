import { memberOnly, Route, withPermission } from '../../../core/rest/route';
import { NOTIFICATION } from '../contract';

export const IN_APPS = '/notification/api/in-apps';
const NOTIFICATION_MANAGE = withPermission(NOTIFICATION.permissions.manage);

const PAGE_META = 'meta { page limit total totalPages }';
/** An in-app notification as every route and the stream answer it. */
export const IN_APP_FIELDS = `id memberId title_en title_th title_cn content_en content_th content_cn format type pointSubtype tierSubtype metadata
  readAt createdAt updatedAt`;
const MY_FILTERS = `$page: Int, $limit: Int, $read: String, $format: NotificationFormat, $type: NotificationType, $search: String,
  $dateFrom: DateTimeISO, $dateTo: DateTimeISO, $dateField: String, $locale: Locale`;
const MY_FILTER_ARGS = 'page: $page, limit: $limit, read: $read, format: $format, type: $type, search: $search, dateFrom: $dateFrom, dateTo: $dateTo, dateField: $dateField, locale: $locale';

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
const TEMPLATE_ROUTES: Route[] = Object.entries(TEMPLATE_PATHS).map(([path, template]) => ({
  method: 'post',
  path: `${IN_APPS}/${path}`,
  document: `mutation CreateTemplatedInAppNotification($template: InAppNotificationTemplate!, $input: TemplatedInAppNotificationInput!) {
    createTemplatedInAppNotification(template: $template, input: $input) { ${IN_APP_FIELDS} } }`,
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
export const IN_APP_ROUTES: Route[] = [
  {
    method: 'post',
    path: IN_APPS,
    document: `mutation CreateInAppNotification($input: CreateInAppNotificationInput!) {
    createInAppNotification(input: $input) { ${IN_APP_FIELDS} } }`,
    authorize: NOTIFICATION_MANAGE,
    envelope: 'nested',
    message: 'Notification created',
    status: 201,
  },
  {
    method: 'get',
    path: IN_APPS,
    document: `query InAppNotifications(${MY_FILTERS}, $memberId: ID) {
    inAppNotifications(${MY_FILTER_ARGS}, memberId: $memberId) { ${PAGE_META} data { ${IN_APP_FIELDS} } } }`,
    envelope: 'nested',
    message: 'Notifications',
  },
  {
    method: 'get',
    path: `${IN_APPS}/me`,
    document: `query MyInAppNotifications(${MY_FILTERS}) { myInAppNotifications(${MY_FILTER_ARGS}) { ${PAGE_META} data { ${IN_APP_FIELDS} } } }`,
    envelope: 'nested',
    message: 'Notifications',
  },
  {
    method: 'get',
    path: `${IN_APPS}/me/recent`,
    document: `query MyRecentInAppNotifications($limit: Int, $locale: Locale) {
    myRecentInAppNotifications(limit: $limit, locale: $locale) { ${IN_APP_FIELDS} } }`,
    envelope: 'nested',
    message: 'Recent notifications',
  },
  {
    method: 'get',
    path: `${IN_APPS}/me/unread-count`,
    document: `query MyUnreadInAppNotificationCount { myUnreadInAppNotificationCount { unreadCount } }`,
    envelope: 'nested',
    message: 'Unread notifications',
  },
  {
    method: 'patch',
    path: `${IN_APPS}/me/read-all`,
    document: `mutation MarkAllMyInAppNotificationsRead { markAllMyInAppNotificationsRead { updatedCount } }`,
    authorize: memberOnly,
    envelope: 'nested',
    message: 'Notifications marked read',
  },
  {
    method: 'get',
    path: `${IN_APPS}/:id`,
    document: `query InAppNotification($id: ID!, $locale: Locale) { inAppNotification(id: $id, locale: $locale) { ${IN_APP_FIELDS} } }`,
    envelope: 'nested',
    message: 'Notification found',
  },
  {
    method: 'put',
    path: `${IN_APPS}/:id`,
    document: `mutation UpdateInAppNotification($id: ID!, $input: UpdateInAppNotificationInput!) {
    updateInAppNotification(id: $id, input: $input) { ${IN_APP_FIELDS} } }`,
    authorize: NOTIFICATION_MANAGE,
    envelope: 'nested',
    message: 'Notification updated',
  },
  {
    method: 'patch',
    path: `${IN_APPS}/:id/read`,
    document: `mutation MarkInAppNotificationRead($id: ID!, $read: Boolean!) { markInAppNotificationRead(id: $id, read: $read) { id readAt updatedAt } }`,
    variables: ({ params, body }) => ({ id: params.id, read: body.read }),
    envelope: 'nested',
    message: (data) => (data.markInAppNotificationRead.readAt ? 'Notification marked read' : 'Notification marked unread'),
  },
  {
    method: 'delete',
    path: `${IN_APPS}/:id`,
    document: `mutation DeleteInAppNotification($id: ID!) { deleteInAppNotification(id: $id) { id } }`,
    authorize: NOTIFICATION_MANAGE,
    envelope: 'message',
    message: 'Notification deleted',
  },
  ...TEMPLATE_ROUTES,
];
