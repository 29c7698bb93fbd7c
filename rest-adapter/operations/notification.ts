/** The GraphQL documents behind the /notification/api routes; CI validates each against the supergraph. */

const PAGE_META = 'meta { page limit total totalPages }';
const IN_APP_FIELDS = `id memberId title_en title_th title_cn content_en content_th content_cn format type pointSubtype tierSubtype metadata
  readAt createdAt updatedAt`;
const MY_FILTERS = `$page: Int, $limit: Int, $read: String, $format: NotificationFormat, $type: NotificationType, $search: String,
  $dateFrom: DateTimeISO, $dateTo: DateTimeISO, $dateField: String, $locale: Locale`;
const MY_FILTER_ARGS = 'page: $page, limit: $limit, read: $read, format: $format, type: $type, search: $search, dateFrom: $dateFrom, dateTo: $dateTo, dateField: $dateField, locale: $locale';

export const NOTIFICATION_OPERATIONS = {
  CreateInAppNotification: `mutation CreateInAppNotification($input: CreateInAppNotificationInput!) {
    createInAppNotification(input: $input) { ${IN_APP_FIELDS} } }`,
  InAppNotifications: `query InAppNotifications(${MY_FILTERS}, $memberId: ID) {
    inAppNotifications(${MY_FILTER_ARGS}, memberId: $memberId) { ${PAGE_META} data { ${IN_APP_FIELDS} } } }`,
  MyInAppNotifications: `query MyInAppNotifications(${MY_FILTERS}) { myInAppNotifications(${MY_FILTER_ARGS}) { ${PAGE_META} data { ${IN_APP_FIELDS} } } }`,
  MyRecentInAppNotifications: `query MyRecentInAppNotifications($limit: Int, $locale: Locale) {
    myRecentInAppNotifications(limit: $limit, locale: $locale) { ${IN_APP_FIELDS} } }`,
  MyUnreadInAppNotificationCount: `query MyUnreadInAppNotificationCount { myUnreadInAppNotificationCount { unreadCount } }`,
  InAppNotification: `query InAppNotification($id: ID!, $locale: Locale) { inAppNotification(id: $id, locale: $locale) { ${IN_APP_FIELDS} } }`,
  UpdateInAppNotification: `mutation UpdateInAppNotification($id: ID!, $input: UpdateInAppNotificationInput!) {
    updateInAppNotification(id: $id, input: $input) { ${IN_APP_FIELDS} } }`,
  MarkInAppNotificationRead: `mutation MarkInAppNotificationRead($id: ID!, $read: Boolean!) { markInAppNotificationRead(id: $id, read: $read) { id readAt updatedAt } }`,
  MarkAllMyInAppNotificationsRead: `mutation MarkAllMyInAppNotificationsRead { markAllMyInAppNotificationsRead { updatedCount } }`,
  DeleteInAppNotification: `mutation DeleteInAppNotification($id: ID!) { deleteInAppNotification(id: $id) { id } }`,
  CreateTemplatedInAppNotification: `mutation CreateTemplatedInAppNotification($template: InAppNotificationTemplate!, $input: TemplatedInAppNotificationInput!) {
    createTemplatedInAppNotification(template: $template, input: $input) { ${IN_APP_FIELDS} } }`,
  MyNotificationEvents: `subscription MyNotificationEvents($locale: Locale, $lastEventId: String) {
    myNotificationEvents(locale: $locale, lastEventId: $lastEventId) { id type timestamp notification { ${IN_APP_FIELDS} } read { notificationId updatedCount readAt } } }`,
};
