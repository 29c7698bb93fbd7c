import { FilterQuery } from '@mikro-orm/core';
import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { Principal } from '../../../core/auth/principal';
import { notFound, validationError } from '../../../core/errors';
import { recordEvent } from '../../../core/events/outbox-event';
import { Locale, LOCALES, projectLocale } from '../../../core/i18n';
import { isRecordId } from '../../../core/ids';
import { findPage, Page } from '../../../core/pagination';
import { containsAny } from '../../../core/search';
import { NOTIFICATION, NotificationCreated, NotificationRead } from '../contract';
import { InAppNotification, NOTIFICATION_TEXTS, NotificationFormat, NotificationType } from '../entities/in-app-notification';
import {
  CreateInAppNotificationInput,
  InAppNotificationListArgs,
  ReadAllResult,
  UpdateInAppNotificationInput,
} from '../types/in-app-notification.types';
import { recordOpened } from './engagement.service';
import { notificationKindErrors } from './notification-metadata';
import { NotificationTranslator } from './notification-translation';

const LABEL = 'Notification';
const TEXT_FIELDS = NOTIFICATION_TEXTS.flatMap((name) => LOCALES.map((language) => `${name}_${language}` as const));
const UPDATABLE = ['memberId', ...TEXT_FIELDS, 'format', 'type', 'pointSubtype', 'tierSubtype', 'metadata'] as const;

/**
 * In-app notifications: staff write, list, change and soft-delete them; a member reads its own, marks
 * them read or unread and counts the unread. A member asking for another member's notification is
 * told it does not exist (404). Creations and reads are recorded in the outbox with the change.
 */
export class InAppNotificationService {
  constructor(
    private readonly em: EntityManager,
    private readonly translator?: NotificationTranslator,
  ) {}

  /**
   * Writes the notification (unread) and `notification.created`, in one transaction; 400 on a metadata
   * that breaks its kind's rules. Thai and Chinese left empty beside English are translated first when
   * the provider answers in time; what it could not translate is queued for the translation job.
   */
  async create(input: CreateInAppNotificationInput): Promise<InAppNotification> {
    const type = input.type ?? NotificationType.news;
    const errors = notificationKindErrors(type, input.pointSubtype ?? null, input.tierSubtype ?? null, input.metadata);
    if (errors.length > 0) throw validationError(errors);
    const translations = (await this.translator?.atCreate(input)) ?? { filled: {}, incomplete: false };
    return this.em.transactional(async (em) => {
      const notification = em.create(InAppNotification, {
        ...Object.fromEntries(TEXT_FIELDS.map((field) => [field, input[field] ?? null])),
        ...translations.filled,
        memberId: input.memberId,
        format: input.format ?? NotificationFormat.raw,
        type,
        pointSubtype: input.pointSubtype ?? null,
        tierSubtype: input.tierSubtype ?? null,
        metadata: input.metadata ?? null,
      });
      recordEvent(em, NOTIFICATION.events.created, createdEvent(notification), { aggregateId: notification.memberId });
      await em.flush();
      if (translations.incomplete) await this.translator!.queue(em, notification.id);
      return notification;
    });
  }

  /** Newest first (then by id), filtered, projected to `locale`. */
  async list(args: InAppNotificationListArgs, locale?: Locale): Promise<Page<InAppNotification>> {
    const where = listConditions(args);
    const total = await this.em.count(InAppNotification, where);
    const page = await findPage(this.em, InAppNotification, where, { createdAt: 'desc', id: 'asc' }, args, total);
    return { ...page, data: page.data.map((notification) => this.localize(notification, locale)) };
  }

  /** A member's newest `limit` notifications. */
  async recent(memberId: string, limit: number, locale?: Locale): Promise<InAppNotification[]> {
    const notifications = await this.em.find(InAppNotification, { memberId }, { orderBy: { createdAt: 'desc', id: 'asc' }, limit });
    return notifications.map((notification) => this.localize(notification, locale));
  }

  async unreadCount(memberId: string): Promise<number> {
    return this.em.count(InAppNotification, { memberId, readAt: null });
  }

  /** One live notification: staff read any, a member its own (another member's is 404). */
  async get(id: string, reader: Principal, locale?: Locale): Promise<InAppNotification> {
    return this.localize(await this.visible(this.em, id, reader), locale);
  }

  /** Changes the given fields (memberId, format and type refuse null); the type, subtype and metadata rules apply to the result. */
  async update(id: string, input: UpdateInAppNotificationInput): Promise<InAppNotification> {
    const notification = await this.live(this.em, id);
    const changed = { ...notification } as Record<string, unknown>;
    for (const field of UPDATABLE) {
      if (input[field] !== undefined) changed[field] = input[field] ?? null;
    }
    const errors = notificationKindErrors(changed.type as NotificationType, changed.pointSubtype as never, changed.tierSubtype as never, changed.metadata);
    if (errors.length > 0) throw validationError(errors);
    for (const field of UPDATABLE) Object.assign(notification, { [field]: changed[field] });
    await this.em.flush();
    return notification;
  }

  /**
   * Marks the notification read (readAt set once: an already read one keeps its time) or unread, the
   * row locked so that `notification.read` is recorded once, with the change.
   */
  async markRead(id: string, read: boolean, reader: Principal): Promise<InAppNotification> {
    return this.em.transactional(async (em) => {
      const notification = await this.visible(em, id, reader, LockMode.PESSIMISTIC_WRITE);
      if (read && !notification.readAt) {
        notification.readAt = new Date();
        const event: NotificationRead = { memberId: notification.memberId, notificationId: notification.id, updatedCount: 1, readAt: notification.readAt.toISOString() };
        recordEvent(em, NOTIFICATION.events.read, event, { aggregateId: notification.memberId });
        await recordOpened(em, [notification.id]);
      } else if (!read && notification.readAt) {
        notification.readAt = null;
      }
      await em.flush();
      return notification;
    });
  }

  /** Every unread live notification of the member becomes read in one UPDATE; one `notification.read` names them all. */
  async readAll(memberId: string): Promise<ReadAllResult> {
    return this.em.transactional(async (em) => {
      const rows = await em.execute<Array<{ id: string; read_at: Date }>>(
        `update notification.in_app_notification set read_at = now(), updated_at = now()
          where member_id = ? and read_at is null and deleted_at is null returning id, read_at`,
        [memberId],
      );
      if (rows.length > 0) {
        const event: NotificationRead = { memberId, notificationId: null, updatedCount: rows.length, readAt: new Date(rows[0].read_at).toISOString() };
        recordEvent(em, NOTIFICATION.events.read, event, { aggregateId: memberId });
        await recordOpened(em, rows.map((row) => row.id));
        await em.flush();
      }
      return { updatedCount: rows.length };
    });
  }

  /** Soft delete: the notification leaves every read, list and count; its row stays. */
  async softDelete(id: string): Promise<InAppNotification> {
    const notification = await this.live(this.em, id);
    notification.deletedAt = new Date();
    await this.em.flush();
    return notification;
  }

  localize(notification: InAppNotification, locale?: Locale): InAppNotification {
    return projectLocale(notification, [...NOTIFICATION_TEXTS], locale);
  }

  /** The live notification, if `reader` may see it: a member only its own; 404 otherwise. */
  private async visible(em: EntityManager, id: string, reader: Principal, lockMode?: LockMode): Promise<InAppNotification> {
    const notification = await this.live(em, id, lockMode);
    if (reader.kind === 'member' && notification.memberId !== reader.id) throw notFound(LABEL, id);
    return notification;
  }

  /** The live notification; 404 with `data.data.id`. Any string is accepted as an id. */
  private async live(em: EntityManager, id: string, lockMode?: LockMode): Promise<InAppNotification> {
    const notification = isRecordId(id) ? await em.findOne(InAppNotification, { id }, lockMode ? { lockMode } : {}) : null;
    if (!notification) throw notFound(LABEL, id);
    return notification;
  }
}

function createdEvent(notification: InAppNotification): NotificationCreated {
  return {
    notificationId: notification.id,
    memberId: notification.memberId,
    type: notification.type,
    pointSubtype: notification.pointSubtype,
    tierSubtype: notification.tierSubtype,
    format: notification.format,
    title_en: notification.title_en,
    title_th: notification.title_th,
    title_cn: notification.title_cn,
    content_en: notification.content_en,
    content_th: notification.content_th,
    content_cn: notification.content_cn,
    metadata: notification.metadata,
    createdAt: notification.createdAt.toISOString(),
  };
}

/** The list's filters; `dateFrom` after `dateTo` is 400 on dateTo. */
function listConditions(args: InAppNotificationListArgs): FilterQuery<InAppNotification> {
  if (args.dateFrom && args.dateTo && args.dateFrom > args.dateTo) throw validationError([{ field: 'dateTo', message: 'dateTo must not be before dateFrom' }]);
  const conditions: Record<string, unknown> = {};
  if (args.memberId) conditions.memberId = args.memberId;
  if (args.read === 'true') conditions.readAt = { $ne: null };
  if (args.read === 'false') conditions.readAt = null;
  if (args.format) conditions.format = args.format;
  if (args.type) conditions.type = args.type;
  if (args.search?.trim()) Object.assign(conditions, containsAny([...TEXT_FIELDS], args.search.trim()));
  const dateField = args.dateField ?? 'createdAt';
  if (args.dateFrom || args.dateTo) {
    conditions[dateField] = { ...(args.dateFrom ? { $gte: args.dateFrom } : {}), ...(args.dateTo ? { $lte: args.dateTo } : {}) };
  }
  return conditions as FilterQuery<InAppNotification>;
}
