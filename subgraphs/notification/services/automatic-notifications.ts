import { EntityManager } from '@mikro-orm/postgresql';
import { payloadOf } from '../../../core/events/event-type';
import { PublishedEvent } from '../../../core/events/outbox-event';
import { Locale, LOCALES } from '../../../core/i18n';
import { CLUSTER } from '../../cluster/contract';
import { POINT } from '../../point/contract';
import { REWARD } from '../../reward/contract';
import { InAppNotification, NotificationType, PointSubtype, TierSubtype } from '../entities/in-app-notification';
import { CreateInAppNotificationInput } from '../types/in-app-notification.types';
import { InAppNotificationService } from './in-app-notification.service';

/** The queue of the platform's own events that become member notifications. */
export const AUTOMATIC_NOTIFICATIONS_QUEUE = 'notification.automatic';

/** Every event type that produces an automatic notification. */
export const AUTOMATIC_NOTIFICATION_EVENTS = [
  POINT.events.earned,
  POINT.events.expired,
  POINT.events.expiring,
  POINT.events.receiptSubmitted,
  POINT.events.receiptRejected,
  CLUSTER.events.tierChanged,
  CLUSTER.events.badgeCompleted,
  REWARD.events.codeExpiring,
] as const;

/** A title and a content in one language. */
interface LocalizedText {
  title: string;
  content: string;
}
type AutomaticTexts = Record<Locale, LocalizedText>;

/** What an event becomes: the notification's kind, its metadata and the variables of its texts. */
interface AutomaticNotification {
  type: NotificationType;
  pointSubtype?: PointSubtype;
  tierSubtype?: TierSubtype;
  metadata: Record<string, unknown>;
  texts: AutomaticTexts;
}

const DAY_MS = 24 * 3600 * 1000;

/** `12.50` → `12.5`, `10.00` → `10`: the text's amount (the ledger's decimal string, never a float). */
export function displayPoints(amount: string): string {
  const unsigned = amount.replace(/^-/, '');
  return unsigned.includes('.') ? unsigned.replace(/\.?0+$/, '') : unsigned;
}
const asMetadataNumber = (amount: string) => Number(displayPoints(amount));
const isoDay = (iso: string) => iso.slice(0, 10);
const isHttpUrl = (value: string | null | undefined) => typeof value === 'string' && /^https?:\/\//i.test(value);

/**
 * The automatic notifications' texts, per kind and language (en, th, cn). The texts of staff-written
 * notifications and of the REST convenience endpoints live elsewhere; these are the platform's own.
 */
export const AUTOMATIC_TEXTS = {
  pointsEarned: (points: string): AutomaticTexts => ({
    en: { title: 'Points received', content: `You received ${points} points.` },
    th: { title: 'ได้รับคะแนน', content: `คุณได้รับ ${points} คะแนน` },
    cn: { title: '积分到账', content: `您获得了 ${points} 积分。` },
  }),
  pointsExpired: (points: string): AutomaticTexts => ({
    en: { title: 'Points expired', content: `${points} of your points have expired.` },
    th: { title: 'คะแนนหมดอายุ', content: `คะแนนของคุณจำนวน ${points} คะแนนหมดอายุแล้ว` },
    cn: { title: '积分已过期', content: `您有 ${points} 积分已过期。` },
  }),
  pointsExpiring: (points: string, day: string, days: number): AutomaticTexts => ({
    en: { title: 'Points expiring soon', content: `${points} of your points expire on ${day} (in ${days} days). Use them before then.` },
    th: { title: 'คะแนนใกล้หมดอายุ', content: `คะแนนของคุณจำนวน ${points} คะแนนจะหมดอายุในวันที่ ${day} (อีก ${days} วัน) โปรดใช้ก่อนหมดอายุ` },
    cn: { title: '积分即将过期', content: `您有 ${points} 积分将于 ${day} 过期（还剩 ${days} 天），请尽快使用。` },
  }),
  receiptProcessing: (): AutomaticTexts => ({
    en: { title: 'Receipt received', content: 'We received your receipt and are verifying it. Your points follow once it is approved.' },
    th: { title: 'ได้รับใบเสร็จแล้ว', content: 'เราได้รับใบเสร็จของคุณแล้วและกำลังตรวจสอบ คุณจะได้รับคะแนนเมื่อได้รับการอนุมัติ' },
    cn: { title: '已收到小票', content: '我们已收到您的小票，正在审核中。审核通过后积分将到账。' },
  }),
  receiptRejected: (): AutomaticTexts => ({
    en: { title: 'Receipt not approved', content: 'Your receipt could not be approved. Please check it and send it again.' },
    th: { title: 'ใบเสร็จไม่ผ่านการอนุมัติ', content: 'ใบเสร็จของคุณไม่ผ่านการอนุมัติ โปรดตรวจสอบและส่งใหม่อีกครั้ง' },
    cn: { title: '小票未通过审核', content: '您的小票未能通过审核，请检查后重新提交。' },
  }),
  tierUpgraded: (): AutomaticTexts => ({
    en: { title: 'Tier upgraded', content: 'Congratulations! You have moved up to a new tier.' },
    th: { title: 'เลื่อนระดับสมาชิก', content: 'ยินดีด้วย! คุณได้เลื่อนระดับสมาชิกแล้ว' },
    cn: { title: '等级提升', content: '恭喜！您的会员等级已提升。' },
  }),
  tierAdjusted: (): AutomaticTexts => ({
    en: { title: 'Tier changed', content: 'Your membership tier has changed.' },
    th: { title: 'ระดับสมาชิกเปลี่ยนแปลง', content: 'ระดับสมาชิกของคุณมีการเปลี่ยนแปลง' },
    cn: { title: '等级变更', content: '您的会员等级已变更。' },
  }),
  badgeCompleted: (): AutomaticTexts => ({
    en: { title: 'Badge unlocked', content: 'Congratulations! You have unlocked a new badge.' },
    th: { title: 'ปลดล็อกเหรียญตรา', content: 'ยินดีด้วย! คุณได้ปลดล็อกเหรียญตราใหม่' },
    cn: { title: '徽章已解锁', content: '恭喜！您解锁了一枚新徽章。' },
  }),
  rewardCodeExpiring: (day: string): AutomaticTexts => ({
    en: { title: 'Reward code expiring soon', content: `Your reward code expires on ${day}. Use it before then.` },
    th: { title: 'รหัสรางวัลใกล้หมดอายุ', content: `รหัสรางวัลของคุณจะหมดอายุในวันที่ ${day} โปรดใช้ก่อนหมดอายุ` },
    cn: { title: '兑换码即将过期', content: `您的兑换码将于 ${day} 过期，请尽快使用。` },
  }),
};

/** Whole days from `from` to `to`, rounded up, at least 0. */
const daysBetween = (from: Date, to: Date) => Math.max(0, Math.ceil((to.getTime() - from.getTime()) / DAY_MS));

/** The notification an event becomes, or null when it calls for none (an earn of 0 points). */
export function automaticNotificationFor(event: PublishedEvent): AutomaticNotification | null {
  switch (event.type) {
    case POINT.events.earned: {
      const entry = payloadOf(event, POINT.events.earned);
      if (Number(entry.amount) === 0) return null;
      return {
        type: NotificationType.points,
        pointSubtype: PointSubtype.point_received,
        metadata: { points: asMetadataNumber(entry.amount), transactionId: entry.transactionId, ...(entry.sourceBy ? { source: entry.sourceBy } : {}) },
        texts: AUTOMATIC_TEXTS.pointsEarned(displayPoints(entry.amount)),
      };
    }
    case POINT.events.expired: {
      const entry = payloadOf(event, POINT.events.expired);
      return {
        type: NotificationType.points,
        pointSubtype: PointSubtype.point_expired,
        metadata: { points: asMetadataNumber(entry.amount), expiryDate: entry.createdAt },
        texts: AUTOMATIC_TEXTS.pointsExpired(displayPoints(entry.amount)),
      };
    }
    case POINT.events.expiring: {
      const expiring = payloadOf(event, POINT.events.expiring);
      const daysRemaining = daysBetween(new Date(expiring.noticedAt), new Date(expiring.expiresAt));
      return {
        type: NotificationType.points,
        pointSubtype: PointSubtype.point_nearly_expire,
        metadata: { points: asMetadataNumber(expiring.points), expiryDate: expiring.expiresAt, daysRemaining },
        texts: AUTOMATIC_TEXTS.pointsExpiring(displayPoints(expiring.points), isoDay(expiring.expiresAt), daysRemaining),
      };
    }
    case POINT.events.receiptSubmitted:
    case POINT.events.receiptRejected: {
      const receipt = payloadOf(event, POINT.events.receiptSubmitted, POINT.events.receiptRejected);
      const common = { ...(isHttpUrl(receipt.receiptImageUrl) ? { receiptImageUrl: receipt.receiptImageUrl } : {}) };
      if (event.type === POINT.events.receiptSubmitted) {
        return {
          type: NotificationType.points,
          pointSubtype: PointSubtype.receipt_processing,
          metadata: { ...common, status: 'processing' },
          texts: AUTOMATIC_TEXTS.receiptProcessing(),
        };
      }
      const reasons = receipt.reviewReason ? Object.fromEntries(LOCALES.map((language) => [`reason_${language}`, receipt.reviewReason!.slice(0, 5000)])) : {};
      return {
        type: NotificationType.points,
        pointSubtype: PointSubtype.receipt_error,
        metadata: { ...common, ...reasons, canRetry: true, errorCode: 'RECEIPT_REJECTED' },
        texts: AUTOMATIC_TEXTS.receiptRejected(),
      };
    }
    case CLUSTER.events.tierChanged: {
      const change = payloadOf(event, CLUSTER.events.tierChanged);
      const validUntil = change.tierEndAt ? { validUntil: change.tierEndAt } : {};
      if (change.changeType === 'upgrade') {
        return { type: NotificationType.tier, tierSubtype: TierSubtype.tier_upgraded, metadata: validUntil, texts: AUTOMATIC_TEXTS.tierUpgraded() };
      }
      return { type: NotificationType.tier, tierSubtype: TierSubtype.tier_adjusted, metadata: validUntil, texts: AUTOMATIC_TEXTS.tierAdjusted() };
    }
    case CLUSTER.events.badgeCompleted: {
      const completed = payloadOf(event, CLUSTER.events.badgeCompleted);
      return {
        type: NotificationType.badge,
        metadata: { badgeId: completed.badgeId, earnedAt: completed.completedAt, progressPercentage: 100 },
        texts: AUTOMATIC_TEXTS.badgeCompleted(),
      };
    }
    case REWARD.events.codeExpiring: {
      const expiring = payloadOf(event, REWARD.events.codeExpiring);
      return {
        type: NotificationType.promotion,
        metadata: { promotionId: expiring.rewardId, validUntil: expiring.expiredAt, eventType: 'reward_code_expiring' },
        texts: AUTOMATIC_TEXTS.rewardCodeExpiring(isoDay(expiring.expiredAt)),
      };
    }
    default:
      return null;
  }
}

/**
 * The consumer's step: writes the event's notification for its member (with `notification.created`),
 * in the consumer's transaction. The consumer applies each event once (by event id, and by position
 * in the member's stream), so a repeated delivery writes nothing.
 */
export async function applyAutomaticNotification(em: EntityManager, event: PublishedEvent): Promise<InAppNotification | null> {
  const notification = automaticNotificationFor(event);
  const memberId = (event.data as { memberId?: string }).memberId;
  if (!notification || !memberId) return null;
  const input: CreateInAppNotificationInput = {
    memberId,
    type: notification.type,
    pointSubtype: notification.pointSubtype ?? null,
    tierSubtype: notification.tierSubtype ?? null,
    metadata: notification.metadata,
    ...Object.fromEntries(LOCALES.flatMap((language) => [
      [`title_${language}`, notification.texts[language].title],
      [`content_${language}`, notification.texts[language].content],
    ])),
  };
  return new InAppNotificationService(em).create(input);
}
