import { graphqlEnum, EnumValue } from '../../../core/graphql/enum';
import { Locale } from '../../../core/i18n';
import { NotificationType, PointSubtype, TierSubtype } from '../entities/in-app-notification';
import { NotificationKind } from './notification-metadata';

/** The convenience endpoints' notifications (POST /in-apps/<path>), each with its kind and its texts. */
export const InAppNotificationTemplate = graphqlEnum(
  'InAppNotificationTemplate',
  [
    'points_received',
    'points_receipt_error',
    'points_receipt_processing',
    'points_nearly_expire',
    'points_expired',
    'tier_upgraded_enhanced',
    'tier_adjusted',
    'tier_renewal_reminder',
    'badge_unlocked',
    'badge_progress',
    'promotion_create',
    'news_create',
  ],
  'A notification written from its kind\'s fields, with its title and content generated in every language',
);
export type InAppNotificationTemplate = EnumValue<typeof InAppNotificationTemplate>;

type Texts = Record<Locale, string>;

export interface NotificationTemplateDefinition {
  type: NotificationType;
  pointSubtype?: PointSubtype;
  tierSubtype?: TierSubtype;
  /** Body fields the texts cannot do without; `a|b` means either. */
  required: string[];
  /** Body fields that must be numbers above zero. */
  positive?: string[];
  /** Fields the kind's rules leave optional but that have a default (stored in the metadata). */
  defaults?: Record<string, unknown>;
  /** Values the texts read beyond the body's fields. */
  derived?: (fields: Record<string, unknown>) => Record<string, unknown>;
  title: Texts;
  content: Texts;
}

/** A badge's name in each language: `badgeNames` where given, else `badgeName`. */
const badgeName = (fields: Record<string, unknown>) => {
  const names = (fields.badgeNames ?? {}) as Partial<Record<Locale, string>>;
  const fallback = names.en ?? (fields.badgeName as string | undefined);
  return { badge: { en: fallback, th: names.th ?? fallback, cn: names.cn ?? fallback } };
};

/**
 * The texts of each convenience endpoint in English, Thai and Chinese. `{{name}}` is a body field
 * (`name_<language>` first for localized ones, then `name_en`, then `name`; a `{en, th, cn}` object
 * gives its language); `{{#name}}…{{/name}}` appears only when the field is given (and not false),
 * `{{^name}}…{{/name}}` only when it is not. Numbers print with thousands separators, dates as their day.
 */
export const NOTIFICATION_TEMPLATES: Record<InAppNotificationTemplate, NotificationTemplateDefinition> = {
  points_received: {
    type: NotificationType.points,
    pointSubtype: PointSubtype.point_received,
    required: ['points'],
    positive: ['points'],
    title: { en: 'You received {{points}} points', th: 'คุณได้รับ {{points}} คะแนน', cn: '您获得了 {{points}} 积分' },
    content: {
      en: '{{points}} points have been added to your account{{#source}} from {{source}}{{/source}}.{{#transactionId}} Transaction: {{transactionId}}.{{/transactionId}}',
      th: 'เพิ่ม {{points}} คะแนนเข้าบัญชีของคุณแล้ว{{#source}} จาก {{source}}{{/source}}{{#transactionId}} หมายเลขรายการ: {{transactionId}}{{/transactionId}}',
      cn: '{{points}} 积分已存入您的账户{{#source}}，来源：{{source}}{{/source}}。{{#transactionId}}交易编号：{{transactionId}}。{{/transactionId}}',
    },
  },
  points_receipt_error: {
    type: NotificationType.points,
    pointSubtype: PointSubtype.receipt_error,
    required: [],
    title: { en: 'We could not process your receipt', th: 'ไม่สามารถดำเนินการใบเสร็จของคุณได้', cn: '您的收据无法处理' },
    content: {
      en: 'Your receipt could not be processed{{#reason}}: {{reason}}{{/reason}}.{{#resolution}} {{resolution}}{{/resolution}}{{#canRetry}} Please upload it again.{{/canRetry}}{{#errorCode}} (Error {{errorCode}}){{/errorCode}}',
      th: 'ไม่สามารถดำเนินการใบเสร็จของคุณได้{{#reason}}: {{reason}}{{/reason}}{{#resolution}} {{resolution}}{{/resolution}}{{#canRetry}} กรุณาอัปโหลดใหม่อีกครั้ง{{/canRetry}}{{#errorCode}} (รหัสข้อผิดพลาด {{errorCode}}){{/errorCode}}',
      cn: '您的收据无法处理{{#reason}}：{{reason}}{{/reason}}。{{#resolution}}{{resolution}}{{/resolution}}{{#canRetry}}请重新上传。{{/canRetry}}{{#errorCode}}（错误代码 {{errorCode}}）{{/errorCode}}',
    },
  },
  points_receipt_processing: {
    type: NotificationType.points,
    pointSubtype: PointSubtype.receipt_processing,
    required: [],
    defaults: { status: 'processing' },
    title: { en: 'Your receipt is being processed', th: 'กำลังดำเนินการใบเสร็จของคุณ', cn: '您的收据正在处理中' },
    content: {
      en: '{{#statusMessage}}{{statusMessage}}{{/statusMessage}}{{^statusMessage}}We received your receipt and are checking it.{{/statusMessage}}{{#estimatedProcessingTime}} Estimated time: {{estimatedProcessingTime}}.{{/estimatedProcessingTime}}',
      th: '{{#statusMessage}}{{statusMessage}}{{/statusMessage}}{{^statusMessage}}เราได้รับใบเสร็จของคุณแล้วและกำลังตรวจสอบ{{/statusMessage}}{{#estimatedProcessingTime}} เวลาโดยประมาณ: {{estimatedProcessingTime}}{{/estimatedProcessingTime}}',
      cn: '{{#statusMessage}}{{statusMessage}}{{/statusMessage}}{{^statusMessage}}我们已收到您的收据，正在审核中。{{/statusMessage}}{{#estimatedProcessingTime}}预计处理时间：{{estimatedProcessingTime}}。{{/estimatedProcessingTime}}',
    },
  },
  points_nearly_expire: {
    type: NotificationType.points,
    pointSubtype: PointSubtype.point_nearly_expire,
    required: ['points', 'expiryDate'],
    positive: ['points'],
    title: { en: '{{points}} points expire soon', th: '{{points}} คะแนนใกล้หมดอายุ', cn: '{{points}} 积分即将过期' },
    content: {
      en: '{{points}} points{{#source}} from {{source}}{{/source}} will expire on {{expiryDate}}{{#daysRemaining}} (in {{daysRemaining}} days){{/daysRemaining}}. Use them before they expire.',
      th: '{{points}} คะแนน{{#source}}จาก {{source}}{{/source}} จะหมดอายุในวันที่ {{expiryDate}}{{#daysRemaining}} (อีก {{daysRemaining}} วัน){{/daysRemaining}} กรุณาใช้คะแนนก่อนหมดอายุ',
      cn: '{{#source}}来自{{source}}的{{/source}}{{points}} 积分将于 {{expiryDate}} 过期{{#daysRemaining}}（剩余 {{daysRemaining}} 天）{{/daysRemaining}}。请在过期前使用。',
    },
  },
  points_expired: {
    type: NotificationType.points,
    pointSubtype: PointSubtype.point_expired,
    required: ['points'],
    positive: ['points'],
    title: { en: '{{points}} points have expired', th: '{{points}} คะแนนหมดอายุแล้ว', cn: '{{points}} 积分已过期' },
    content: {
      en: '{{points}} points{{#source}} from {{source}}{{/source}} expired{{#expiryDate}} on {{expiryDate}}{{/expiryDate}}.',
      th: '{{points}} คะแนน{{#source}}จาก {{source}}{{/source}} หมดอายุแล้ว{{#expiryDate}}เมื่อวันที่ {{expiryDate}}{{/expiryDate}}',
      cn: '{{#source}}来自{{source}}的{{/source}}{{points}} 积分已{{#expiryDate}}于 {{expiryDate}} {{/expiryDate}}过期。',
    },
  },
  tier_upgraded_enhanced: {
    type: NotificationType.tier,
    tierSubtype: TierSubtype.tier_upgraded,
    required: ['newTier_en'],
    title: { en: 'Congratulations! You are now {{newTier}}', th: 'ยินดีด้วย! คุณเป็นสมาชิกระดับ {{newTier}} แล้ว', cn: '恭喜！您已升级为 {{newTier}}' },
    content: {
      en: 'You moved up{{#previousTier}} from {{previousTier}}{{/previousTier}} to {{newTier}}.{{#benefits}} Your benefits: {{benefits}}.{{/benefits}}{{#validUntil}} Valid until {{validUntil}}.{{/validUntil}}',
      th: 'คุณได้เลื่อนระดับ{{#previousTier}}จาก {{previousTier}}{{/previousTier}} เป็น {{newTier}}{{#benefits}} สิทธิประโยชน์ของคุณ: {{benefits}}{{/benefits}}{{#validUntil}} ใช้ได้ถึงวันที่ {{validUntil}}{{/validUntil}}',
      cn: '您已{{#previousTier}}从 {{previousTier}} {{/previousTier}}升级为 {{newTier}}。{{#benefits}}您的专属权益：{{benefits}}。{{/benefits}}{{#validUntil}}有效期至 {{validUntil}}。{{/validUntil}}',
    },
  },
  tier_adjusted: {
    type: NotificationType.tier,
    tierSubtype: TierSubtype.tier_adjusted,
    required: ['newTier_en'],
    title: { en: 'Your tier is now {{newTier}}', th: 'ระดับสมาชิกของคุณเปลี่ยนเป็น {{newTier}}', cn: '您的会员等级已调整为 {{newTier}}' },
    content: {
      en: 'Your tier changed{{#previousTier}} from {{previousTier}}{{/previousTier}} to {{newTier}}.{{#reason}} Reason: {{reason}}.{{/reason}}{{#requirements}} To move up: {{requirements}}.{{/requirements}}{{#validUntil}} Valid until {{validUntil}}.{{/validUntil}}',
      th: 'ระดับสมาชิกของคุณเปลี่ยน{{#previousTier}}จาก {{previousTier}}{{/previousTier}} เป็น {{newTier}}{{#reason}} เหตุผล: {{reason}}{{/reason}}{{#requirements}} เงื่อนไขการเลื่อนระดับ: {{requirements}}{{/requirements}}{{#validUntil}} ใช้ได้ถึงวันที่ {{validUntil}}{{/validUntil}}',
      cn: '您的会员等级已{{#previousTier}}从 {{previousTier}} {{/previousTier}}调整为 {{newTier}}。{{#reason}}原因：{{reason}}。{{/reason}}{{#requirements}}升级条件：{{requirements}}。{{/requirements}}{{#validUntil}}有效期至 {{validUntil}}。{{/validUntil}}',
    },
  },
  tier_renewal_reminder: {
    type: NotificationType.tier,
    tierSubtype: TierSubtype.tier_renewal_reminder,
    required: ['expiryDate', 'daysRemaining'],
    title: {
      en: 'Your {{#currentTier}}{{currentTier}} {{/currentTier}}tier expires in {{daysRemaining}} days',
      th: 'ระดับสมาชิก{{#currentTier}} {{currentTier}}{{/currentTier}} ของคุณจะหมดอายุในอีก {{daysRemaining}} วัน',
      cn: '您的{{#currentTier}} {{currentTier}} {{/currentTier}}会员等级将在 {{daysRemaining}} 天后到期',
    },
    content: {
      en: 'Your {{#currentTier}}{{currentTier}} {{/currentTier}}tier expires on {{expiryDate}}.{{#requirements}} To keep it: {{requirements}}.{{/requirements}}{{#benefits}} Keep enjoying: {{benefits}}.{{/benefits}}',
      th: 'ระดับสมาชิก{{#currentTier}} {{currentTier}}{{/currentTier}} ของคุณจะหมดอายุในวันที่ {{expiryDate}}{{#requirements}} เงื่อนไขการรักษาระดับ: {{requirements}}{{/requirements}}{{#benefits}} สิทธิประโยชน์ที่คุณจะได้รับต่อ: {{benefits}}{{/benefits}}',
      cn: '您的{{#currentTier}} {{currentTier}} {{/currentTier}}会员等级将于 {{expiryDate}} 到期。{{#requirements}}保级条件：{{requirements}}。{{/requirements}}{{#benefits}}继续享受：{{benefits}}。{{/benefits}}',
    },
  },
  badge_unlocked: {
    type: NotificationType.badge,
    required: ['badgeName|badgeNames'],
    derived: badgeName,
    title: { en: 'Badge unlocked: {{badge}}', th: 'ปลดล็อกเหรียญตรา: {{badge}}', cn: '徽章已解锁：{{badge}}' },
    content: {
      en: 'You unlocked the {{badge}} badge!{{#unlockDescription}} {{unlockDescription}}{{/unlockDescription}}',
      th: 'คุณปลดล็อกเหรียญตรา {{badge}} แล้ว!{{#unlockDescription}} {{unlockDescription}}{{/unlockDescription}}',
      cn: '您已解锁 {{badge}} 徽章！{{#unlockDescription}}{{unlockDescription}}{{/unlockDescription}}',
    },
  },
  badge_progress: {
    type: NotificationType.badge,
    required: ['badgeName|badgeNames', 'progressPercentage'],
    derived: badgeName,
    title: { en: '{{progressPercentage}}% of the way to {{badge}}', th: 'ความคืบหน้า {{progressPercentage}}% สู่เหรียญตรา {{badge}}', cn: '{{badge}} 徽章进度 {{progressPercentage}}%' },
    content: {
      en: 'You are {{progressPercentage}}% of the way to the {{badge}} badge{{#goalValue}}{{#currentValue}} ({{currentValue}} of {{goalValue}}){{/currentValue}}{{/goalValue}}.{{#daysLeft}} {{daysLeft}} days left.{{/daysLeft}}',
      th: 'คุณทำได้ {{progressPercentage}}% ของเหรียญตรา {{badge}} แล้ว{{#goalValue}}{{#currentValue}} ({{currentValue}} จาก {{goalValue}}){{/currentValue}}{{/goalValue}}{{#daysLeft}} เหลืออีก {{daysLeft}} วัน{{/daysLeft}}',
      cn: '您已完成 {{badge}} 徽章的 {{progressPercentage}}%{{#goalValue}}{{#currentValue}}（{{currentValue}}/{{goalValue}}）{{/currentValue}}{{/goalValue}}。{{#daysLeft}}还剩 {{daysLeft}} 天。{{/daysLeft}}',
    },
  },
  promotion_create: {
    type: NotificationType.promotion,
    required: ['rewardName_en'],
    title: { en: 'New promotion: {{rewardName}}', th: 'โปรโมชันใหม่: {{rewardName}}', cn: '新优惠：{{rewardName}}' },
    content: {
      en: '{{#discount}}Save {{discount}}% on {{rewardName}}{{/discount}}{{^discount}}{{rewardName}} is waiting for you{{/discount}}{{#validUntil}} until {{validUntil}}{{/validUntil}}.{{#terms}} Terms: {{terms}}{{/terms}}',
      th: '{{#discount}}รับส่วนลด {{discount}}% สำหรับ {{rewardName}}{{/discount}}{{^discount}}{{rewardName}} รอคุณอยู่{{/discount}}{{#validUntil}} ถึงวันที่ {{validUntil}}{{/validUntil}}{{#terms}} เงื่อนไข: {{terms}}{{/terms}}',
      cn: '{{#discount}}{{rewardName}} 享 {{discount}}% 折扣{{/discount}}{{^discount}}{{rewardName}} 正在等您{{/discount}}{{#validUntil}}，有效期至 {{validUntil}}{{/validUntil}}。{{#terms}}条款：{{terms}}{{/terms}}',
    },
  },
  news_create: {
    type: NotificationType.news,
    required: ['category'],
    derived: (fields) => ({ important: fields.priority === 'high' }),
    title: { en: '{{#important}}Important: {{/important}}{{category}} news', th: '{{#important}}สำคัญ: {{/important}}ข่าวสาร {{category}}', cn: '{{#important}}重要：{{/important}}{{category}}新闻' },
    content: {
      en: 'There is new {{category}} news for you. Open the app to read it.{{#tags}} Topics: {{tags}}.{{/tags}}',
      th: 'มีข่าวสาร {{category}} ใหม่สำหรับคุณ เปิดแอปเพื่ออ่านรายละเอียด{{#tags}} หัวข้อ: {{tags}}{{/tags}}',
      cn: '您有新的{{category}}新闻，请打开应用查看。{{#tags}}主题：{{tags}}。{{/tags}}',
    },
  },
};

/** The metadata kind a template's fields are read as. */
export const templateKind = (template: NotificationTemplateDefinition): NotificationKind =>
  (template.pointSubtype ?? template.tierSubtype ?? template.type) as NotificationKind;

const SECTION = /\{\{([#^])(\w+)\}\}([\s\S]*?)\{\{\/\2\}\}/g;
const PLACEHOLDER = /\{\{(\w+)\}\}/g;
const ISO_DAY = /^(\d{4}-\d{2}-\d{2})(T.*)?$/;
const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** A value as the texts print it in `language`; undefined when absent. */
function valueOf(values: Record<string, unknown>, name: string, language: Locale): string | undefined {
  const raw = [values[`${name}_${language}`], values[`${name}_en`], values[name]].find((value) => value !== undefined && value !== null && value !== '');
  if (raw === undefined || raw === false) return undefined;
  if (raw === true) return 'true';
  if (typeof raw === 'number') return NUMBER.format(raw);
  if (Array.isArray(raw)) return raw.length > 0 ? raw.map(String).join(', ') : undefined;
  if (typeof raw === 'object') {
    const byLanguage = raw as Partial<Record<Locale, unknown>>;
    const text = byLanguage[language] ?? byLanguage.en;
    return typeof text === 'string' && text !== '' ? text : undefined;
  }
  const text = String(raw);
  return ISO_DAY.exec(text)?.[1] ?? text;
}

/** A template's text in `language`, its placeholders filled from `values`. */
export function renderTemplate(text: string, values: Record<string, unknown>, language: Locale): string {
  let rendered = text;
  // Sections nest (each of a different name): resolve the outer ones until none is left.
  for (let previous = ''; previous !== rendered; ) {
    previous = rendered;
    rendered = rendered.replace(SECTION, (_, mode: string, name: string, inner: string) => {
      const given = valueOf(values, name, language) !== undefined;
      return (mode === '#') === given ? inner : '';
    });
  }
  return rendered.replace(PLACEHOLDER, (_, name: string) => valueOf(values, name, language) ?? '');
}
