import { SeedContext } from './context';
import { ensureNamed, idsBy } from './ensure';
import { SeededMember } from './members';
import { PROGRAM_NAME, VIP_NOTICE, WELCOME_TEMPLATE } from './program';

interface SentNotification {
  id: string;
  title: string;
  templateName: string | null;
}

/** Sends unless a notification of that template (or title, without one) was sent already. */
async function ensureSent({ client, tally }: SeedContext, sent: SentNotification[], mutation: string, input: Record<string, unknown>): Promise<void> {
  const already = sent.some((notification) => (input.template ? notification.templateName === input.template : notification.title === input.title));
  if (already) return tally.note('notifications', 'present');
  await client.request(`mutation DemoSend($input: SendNotificationInput!) { ${mutation}(input: $input) { notificationId } }`, { input });
  tally.note('notifications', 'created');
}

/**
 * The welcome template, sent in-app to the newsletter segment, and a preview notice sent to the
 * biggest spenders by id. The platform delivers both by its job, in batches.
 */
export async function seedNotifications(context: SeedContext, newsletterSegmentId: string, members: SeededMember[]): Promise<void> {
  const { client, tally } = context;
  const templates = idsBy(await client.listAll<{ id: string; name: string }>('v1NotificationTemplates', 'id name'), 'name');
  await ensureNamed(tally, 'notification templates', [WELCOME_TEMPLATE], (template) => template.name, templates, (template) =>
    client.create('createV1NotificationTemplate', 'CreateV1TemplateInput', template),
  );
  const sent = await client.listAll<SentNotification>('v1Notifications', 'id title templateName');
  await ensureSent(context, sent, 'sendNotificationToSegment', { segmentId: newsletterSegmentId, template: WELCOME_TEMPLATE.name, variables: { program: PROGRAM_NAME } });
  const vips = members.filter((member) => member.person.spender === 'vip').map((member) => member.id);
  if (vips.length > 0) await ensureSent(context, sent, 'sendNotification', { ...VIP_NOTICE, customerIds: vips });
}
