/** The GraphQL documents behind the /api/v1 notification routes; CI validates each against the supergraph. */

const NOTIFICATION = `id title body image actionUrl channel priority category templateName segmentId status totalRecipients delivered failed skipped opened clicked note
  createdAt sentAt completedAt scheduledAt`;
const SENT = 'notificationId status totalRecipients scheduledAt';
const TEMPLATE = 'id name title body channel variables createdAt updatedAt';
const PREFERENCES = 'customerId channels { chatapp sms email } categories { promotions loyalty transactions campaigns } quietHours { enabled start end timezone } updatedAt';

export const V1_NOTIFICATION_OPERATIONS = {
  V1SendNotification: `mutation V1SendNotification($input: SendNotificationInput!, $idempotencyKey: String) {
    sendNotification(input: $input, idempotencyKey: $idempotencyKey) { ${SENT} } }`,
  V1SendNotificationToSegment: `mutation V1SendNotificationToSegment($input: SendNotificationInput!, $idempotencyKey: String) {
    sendNotificationToSegment(input: $input, idempotencyKey: $idempotencyKey) { ${SENT} } }`,
  V1Notifications: `query V1Notifications($status: String, $channel: String, $dateFrom: String, $dateTo: String, $page: Int, $limit: Int) {
    v1Notifications(status: $status, channel: $channel, dateFrom: $dateFrom, dateTo: $dateTo, page: $page, limit: $limit) { meta { page limit total } data { ${NOTIFICATION} } } }`,
  V1Notification: `query V1Notification($id: ID!) { v1Notification(id: $id) { ${NOTIFICATION} } }`,
  V1NotificationTemplates: `query V1NotificationTemplates($page: Int, $limit: Int) { v1NotificationTemplates(page: $page, limit: $limit) { meta { page limit total } data { ${TEMPLATE} } } }`,
  V1CreateNotificationTemplate: `mutation V1CreateNotificationTemplate($input: CreateV1TemplateInput!) { createV1NotificationTemplate(input: $input) { ${TEMPLATE} } }`,
  V1NotificationPreferences: `query V1NotificationPreferences($customerId: ID!) { notificationPreferences(customerId: $customerId) { ${PREFERENCES} } }`,
  V1UpdateNotificationPreferences: `mutation V1UpdateNotificationPreferences($customerId: ID!, $input: UpdateNotificationPreferencesInput!) {
    updateNotificationPreferences(customerId: $customerId, input: $input) { ${PREFERENCES} } }`,
  V1TrackNotificationClick: `mutation V1TrackNotificationClick($deliveryId: ID!, $signature: String!) { trackNotificationClick(deliveryId: $deliveryId, signature: $signature) }`,
};
