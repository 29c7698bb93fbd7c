import { EntityManager } from '@mikro-orm/postgresql';
import { Principal } from '../../../core/auth/principal';
import { AppError, FieldError, notFound, validationError } from '../../../core/errors';
import { recordEvent } from '../../../core/events/outbox-event';
import { isRecordId } from '../../../core/ids';
import { findPage, Page } from '../../../core/pagination';
import { NOTIFICATION, NotificationSent } from '../contract';
import { V1_CATEGORIES, V1_CHANNELS, V1_PRIORITIES, V1Channel, V1Notification } from '../entities/v1-notification';
import { NotificationSendResult, SendNotificationInput, V1NotificationListArgs } from '../types/v1-notification.types';
import { answeredBefore, onceForKey } from './idempotency';
import { NotificationSupergraph } from './notification-supergraph';
import { MAX_BODY, MAX_TITLE, renderV1Template, V1TemplateService } from './v1-template.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const DATE_OR_TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;
export const MAX_CUSTOMER_IDS = 10_000;
export const MAX_URL = 2048;
/** A schedule_at at most this far in the past is "now" (clocks differ); further back is a mistake. */
const PAST_TOLERANCE_MS = 60_000;
const MAX_AHEAD_MS = 366 * 86_400_000;

/** The `notification.sent` payload of a notification that began sending. */
export const sentEvent = (notification: Pick<V1Notification, 'id' | 'title' | 'channel' | 'totalRecipients'>, sentAt: Date): NotificationSent => ({
  notificationId: notification.id,
  title: notification.title,
  channel: notification.channel,
  totalRecipients: notification.totalRecipients,
  sentAt: sentAt.toISOString(),
});

/** The answer to a send, the same on every replay of its key: `scheduled` or `sending` as it was accepted. */
const sendResult = (notification: V1Notification): NotificationSendResult => ({
  notificationId: notification.id,
  status: notification.scheduledAt ? 'scheduled' : 'sending',
  totalRecipients: notification.totalRecipients,
  scheduledAt: notification.scheduledAt,
});

/** Receives the sending worker's nudge: work was just committed. */
export type SendKick = () => void;

/**
 * Version-1 notifications (Part 3): a send is checked, written (scheduled, or sending at once with
 * `notification.sent`) and answered at once; the sending worker (v1-notification-sender.ts) expands
 * its recipients in batches and delivers them. Lists and details read the counters the worker keeps.
 */
export class V1NotificationService {
  constructor(
    private readonly em: EntityManager,
    private readonly templates: V1TemplateService,
    private readonly supergraph?: NotificationSupergraph,
    private readonly kick?: SendKick,
  ) {}

  /**
   * POST /notifications/send (`customerIds`) and /send-to-segment (`segmentId`). A repeated
   * Idempotency-Key is looked at first: its first answer again, whatever the checks would say now.
   */
  async send(mode: 'customers' | 'segment', input: SendNotificationInput, caller: Principal, idempotencyKey?: string): Promise<NotificationSendResult> {
    const scope = `notification-send:${caller.kind}:${caller.id}`;
    const request = { mode, input };
    const replayed = await answeredBefore(this.em, scope, idempotencyKey, request);
    if (replayed) return sendResult(await this.em.findOneOrFail(V1Notification, { id: replayed }));
    const errors: FieldError[] = [];
    let title = input.title ?? null;
    let body = input.body ?? null;
    let channel = input.channel ?? null;
    if (input.template != null) {
      if (input.title != null) errors.push({ field: 'title', message: 'title comes from the template' });
      if (input.body != null) errors.push({ field: 'body', message: 'body comes from the template' });
      const template = await this.templates.byName(String(input.template));
      const rendered = renderV1Template(template, input.variables ?? {}, errors);
      title = rendered.title;
      body = rendered.body;
      channel ??= template.channel;
    } else {
      if (input.variables != null) errors.push({ field: 'variables', message: 'variables are given with a template' });
      if (typeof title !== 'string' || !title.trim()) errors.push({ field: 'title', message: 'title is required' });
      else if (title.length > MAX_TITLE) errors.push({ field: 'title', message: `title is at most ${MAX_TITLE} characters` });
      if (typeof body !== 'string' || !body.trim()) errors.push({ field: 'body', message: 'body is required' });
      else if (body.length > MAX_BODY) errors.push({ field: 'body', message: `body is at most ${MAX_BODY} characters` });
    }
    if (!(V1_CHANNELS as readonly string[]).includes(channel ?? '')) errors.push({ field: 'channel', message: `channel is one of ${V1_CHANNELS.join(', ')}` });
    if (input.priority != null && !(V1_PRIORITIES as readonly string[]).includes(input.priority)) errors.push({ field: 'priority', message: `priority is one of ${V1_PRIORITIES.join(', ')}` });
    if (input.category != null && !(V1_CATEGORIES as readonly string[]).includes(input.category)) errors.push({ field: 'category', message: `category is one of ${V1_CATEGORIES.join(', ')}` });
    checkUrl('image', input.image, errors);
    checkUrl('actionUrl', input.actionUrl, errors);
    const scheduleAt = checkScheduleAt(input.scheduleAt, errors);
    let customerIds: string[] = [];
    if (mode === 'customers') {
      customerIds = checkCustomerIds(input.customerIds, errors);
      if (input.segmentId != null) errors.push({ field: 'segmentId', message: 'segment_id is sent to /notifications/send-to-segment' });
    } else {
      if (input.customerIds != null) errors.push({ field: 'customerIds', message: 'customer_ids are sent to /notifications/send' });
      if (typeof input.segmentId !== 'string' || !input.segmentId) errors.push({ field: 'segmentId', message: 'segment_id is required' });
    }
    if (errors.length > 0) throw validationError(errors);

    let totalRecipients = customerIds.length;
    if (mode === 'customers') await this.assertCustomers(customerIds);
    else {
      const size = UUID.test(input.segmentId!) ? await this.requireSupergraph().segmentSize(input.segmentId!) : null;
      if (size === null) throw new AppError('NOT_FOUND', 'Segment not found', [{ field: 'segmentId', message: `no segment ${input.segmentId}` }]);
      totalRecipients = size;
    }
    const result = await this.em.transactional(async (em) => {
      const { id } = await onceForKey(em, scope, idempotencyKey, request, async () => {
        const now = new Date();
        const scheduled = scheduleAt !== null && scheduleAt.getTime() > now.getTime();
        const notification = em.create(V1Notification, {
          title: title!.trim(),
          body: body!,
          image: input.image ?? null,
          actionUrl: input.actionUrl ?? null,
          channel: channel as V1Channel,
          priority: input.priority ?? 'normal',
          category: input.category ?? null,
          templateName: input.template ?? null,
          segmentId: mode === 'segment' ? input.segmentId!.toLowerCase() : null,
          customerIds: mode === 'customers' ? customerIds : null,
          status: scheduled ? 'scheduled' : 'sending',
          totalRecipients,
          createdBy: `${caller.kind}:${caller.id}`,
          scheduledAt: scheduled ? scheduleAt : null,
          sentAt: scheduled ? null : now,
        });
        if (!scheduled) recordEvent(em, NOTIFICATION.events.sent, sentEvent(notification, now), { aggregateId: notification.id });
        await em.flush();
        return notification.id;
      });
      return em.findOneOrFail(V1Notification, { id }, { refresh: true });
    });
    this.kick?.();
    return sendResult(result);
  }

  /** Newest first, by status, channel and creation time. */
  async list(args: V1NotificationListArgs): Promise<Page<V1Notification>> {
    const where: Record<string, unknown> = {};
    if (args.status) where.status = args.status;
    if (args.channel) where.channel = args.channel;
    const from = args.dateFrom ? dateBound(args.dateFrom, false) : undefined;
    const to = args.dateTo ? dateBound(args.dateTo, true) : undefined;
    if ((from && isNaN(from.getTime())) || (to && isNaN(to.getTime()))) {
      throw validationError([...(from && isNaN(from.getTime()) ? [{ field: 'dateFrom', message: 'date_from is not a date' }] : []), ...(to && isNaN(to.getTime()) ? [{ field: 'dateTo', message: 'date_to is not a date' }] : [])]);
    }
    if (from || to) where.createdAt = { ...(from ? { $gte: from } : {}), ...(to ? { $lte: to } : {}) };
    return findPage(this.em, V1Notification, where, { createdAt: 'desc', id: 'desc' }, args, await this.em.count(V1Notification, where));
  }

  async get(id: string): Promise<V1Notification> {
    const notification = isRecordId(id) ? await this.em.findOne(V1Notification, { id }) : null;
    if (!notification) throw notFound('Notification', id);
    return notification;
  }

  /** 404 on `customerIds` naming the first unknown customer. */
  private async assertCustomers(ids: string[]): Promise<void> {
    const found = await this.requireSupergraph().recipients(ids);
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw new AppError('NOT_FOUND', `Customer ${missing[0]} not found${missing.length > 1 ? ` (and ${missing.length - 1} more)` : ''}`, [{ field: 'customerIds', message: `unknown customers: ${missing.slice(0, 10).join(', ')}` }]);
    }
  }

  private requireSupergraph(): NotificationSupergraph {
    if (!this.supergraph) throw new AppError('UNAVAILABLE', 'The notification service runs without the gateway');
    return this.supergraph;
  }
}

function checkUrl(field: string, value: string | null | undefined, errors: FieldError[]): void {
  if (value == null) return;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || value.length > MAX_URL) errors.push({ field, message: `${field === 'actionUrl' ? 'action_url' : field} is an http(s) URL of at most ${MAX_URL} characters` });
}

function checkScheduleAt(value: string | null | undefined, errors: FieldError[]): Date | null {
  if (value == null) return null;
  const at = TIMESTAMP.test(value) ? new Date(value) : null;
  let problem: string | undefined;
  if (!at || isNaN(at.getTime())) problem = 'schedule_at is an ISO 8601 timestamp with a time zone';
  else if (at.getTime() < Date.now() - PAST_TOLERANCE_MS) problem = 'schedule_at is in the past';
  else if (at.getTime() > Date.now() + MAX_AHEAD_MS) problem = 'schedule_at is at most a year ahead';
  if (problem) errors.push({ field: 'scheduleAt', message: problem });
  return problem ? null : at;
}

function checkCustomerIds(value: string[] | null | undefined, errors: FieldError[]): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_CUSTOMER_IDS) {
    errors.push({ field: 'customerIds', message: `customer_ids is an array of 1 to ${MAX_CUSTOMER_IDS} customer ids (send to a segment for more)` });
    return [];
  }
  const ids: string[] = [];
  value.forEach((id, index) => {
    if (typeof id !== 'string' || !UUID.test(id)) errors.push({ field: `customerIds[${index}]`, message: 'not a customer id' });
    else ids.push(id.toLowerCase());
  });
  return [...new Set(ids)];
}

/** A list bound: a bare `date_to` covers its whole UTC day. */
function dateBound(value: string, end: boolean): Date {
  if (!DATE_OR_TIMESTAMP.test(value)) return new Date(NaN);
  return value.length === 10 && end ? new Date(`${value}T23:59:59.999Z`) : new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
}
