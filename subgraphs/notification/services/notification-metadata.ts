import { isISO8601 } from 'class-validator';
import { FieldError } from '../../../core/errors';
import { LOCALES } from '../../../core/i18n';
import { NotificationType, PointSubtype, TierSubtype } from '../entities/in-app-notification';

/** The kind a notification's metadata is read as: its subtype for points and tier, else its type. */
export type NotificationKind = PointSubtype | TierSubtype | Exclude<NotificationType, 'points' | 'tier'>;

/** One metadata field's rule: the message of what is wrong with `value`, or null when it is right. */
type Rule = (value: unknown) => string | null;

const HTTP_URL = /^https?:\/\/[^\s/?#]+[^\s]*$/i;
const MAX_TEXT = 5000;
const MAX_LIST = 100;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

const text: Rule = (value) => (typeof value === 'string' && value.length <= MAX_TEXT ? null : `must be a string of at most ${MAX_TEXT} characters`);
const number: Rule = (value) => (typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number');
const boolean: Rule = (value) => (typeof value === 'boolean' ? null : 'must be a boolean');
const url: Rule = (value) => (typeof value === 'string' && value.length <= 2048 && HTTP_URL.test(value) ? null : 'must be an http or https URL');
const isoDate: Rule = (value) => (typeof value === 'string' && isISO8601(value, { strict: true, strictSeparator: true }) ? null : 'must be an ISO 8601 date');
const percentage: Rule = (value) => (typeof value === 'number' && value >= 0 && value <= 100 ? null : 'must be a number from 0 to 100');
const oneOf =
  (...values: string[]): Rule =>
  (value) =>
    typeof value === 'string' && values.includes(value) ? null : `must be one of ${values.join(', ')}`;
const textList: Rule = (value) =>
  Array.isArray(value) && value.length <= MAX_LIST && value.every((item) => text(item) === null) ? null : `must be an array of at most ${MAX_LIST} strings`;

/** The rule of a field a client named: an own entry only, so `__proto__` or `constructor` name no rule. */
const ruleOf = (fields: Record<string, Rule>, key: string): Rule | undefined => (Object.hasOwn(fields, key) ? fields[key] : undefined);

/** An object of the given fields, each optional, no others. */
const objectOf =
  (fields: Record<string, Rule>): Rule =>
  (value) => {
    if (!isObject(value)) return `must be an object with ${Object.keys(fields).join(', ')}`;
    for (const [key, item] of Object.entries(value)) {
      const rule = ruleOf(fields, key);
      if (!rule) return `has an unknown field ${key}`;
      const problem = rule(item);
      if (problem) return `${key} ${problem}`;
    }
    return null;
  };

/** `<name>_en`, `<name>_th`, `<name>_cn`, each with `rule`. */
const localized = (name: string, rule: Rule = text): Record<string, Rule> => Object.fromEntries(LOCALES.map((language) => [`${name}_${language}`, rule]));
const languages = objectOf(Object.fromEntries(LOCALES.map((language) => [language, text])));
const window = objectOf({ start: isoDate, end: isoDate });

interface KindSchema {
  fields: Record<string, Rule>;
  required?: string[];
}

/** Spec Part 2, metadata fields by kind: every field optional (null is absent) unless required, no others. */
export const METADATA_SCHEMAS: Record<NotificationKind, KindSchema> = {
  point_received: { fields: { points: number, source: text, transactionId: text, receiptImageUrl: url } },
  receipt_error: {
    fields: { ...localized('reason'), ...localized('resolution'), receiptImageUrl: url, canRetry: boolean, transactionId: text, errorCode: text },
  },
  receipt_processing: {
    fields: {
      transactionId: text,
      receiptImageUrl: url,
      estimatedProcessingTime: text,
      status: oneOf('processing', 'validating', 'analyzing'),
      ...localized('statusMessage'),
      ...localized('description'),
    },
  },
  point_nearly_expire: { fields: { points: number, expiryDate: isoDate, daysRemaining: number, source: text } },
  point_expired: { fields: { points: number, expiryDate: isoDate, source: text } },
  tier_upgraded: { fields: { validUntil: isoDate, ...localized('newTier'), ...localized('previousTier'), ...localized('benefits', textList), tierLogoUrl: url } },
  tier_adjusted: {
    fields: { validUntil: isoDate, ...localized('newTier'), ...localized('previousTier'), ...localized('reason'), ...localized('requirements', textList), tierLogoUrl: url },
  },
  tier_renewal_reminder: {
    fields: {
      expiryDate: isoDate,
      daysRemaining: number,
      ...localized('currentTier'),
      ...localized('requirements', textList),
      ...localized('benefits', textList),
      tierLogoUrl: url,
    },
    required: ['expiryDate', 'daysRemaining'],
  },
  promotion: { fields: { promotionId: text, discount: number, validUntil: isoDate, terms: text, ...localized('rewardName'), eventType: text } },
  news: { fields: { newsId: text, category: text, priority: oneOf('low', 'medium', 'high'), tags: textList } },
  badge: {
    fields: {
      badgeId: text,
      badgeCategory: text,
      earnedAt: isoDate,
      rarity: oneOf('common', 'rare', 'epic', 'legendary'),
      badgeRarity: oneOf('common', 'rare', 'epic', 'legendary'),
      progressPercentage: percentage,
      badgeName: text,
      currentValue: number,
      goalValue: number,
      daysLeft: number,
      unlockDescription: languages,
      badgeRule: objectOf({ purchaseAmount: number, purchaseCount: number, pointsAmount: number, minSpend: number, withinDays: number, window }),
      badgeNames: languages,
      badgeImageUrl: url,
      unlockPercentage: percentage,
    },
  },
};

/** The kind of a notification: its subtype for points and tier (null when that is missing), else its type. */
export function kindOf(type: NotificationType, pointSubtype: PointSubtype | null, tierSubtype: TierSubtype | null): NotificationKind | null {
  if (type === NotificationType.points) return pointSubtype;
  if (type === NotificationType.tier) return tierSubtype;
  return type;
}

/** What is wrong with a notification's type, subtypes and metadata together, one entry per field. */
export function notificationKindErrors(
  type: NotificationType,
  pointSubtype: PointSubtype | null,
  tierSubtype: TierSubtype | null,
  metadata: unknown,
): FieldError[] {
  const errors: FieldError[] = [];
  if (pointSubtype && type !== NotificationType.points) errors.push({ field: 'pointSubtype', message: 'pointSubtype is only for type points' });
  if (tierSubtype && type !== NotificationType.tier) errors.push({ field: 'tierSubtype', message: 'tierSubtype is only for type tier' });
  if (errors.length > 0) return errors;
  const kind = kindOf(type, pointSubtype, tierSubtype);
  if (metadata === null || metadata === undefined) return requiredErrors(kind, {});
  if (!isObject(metadata)) return [{ field: 'metadata', message: 'metadata must be an object' }];
  if (!kind) {
    const subtype = type === NotificationType.points ? 'pointSubtype' : 'tierSubtype';
    return Object.keys(metadata).length === 0 ? [] : [{ field: subtype, message: `${subtype} is required with metadata of type ${type}` }];
  }
  return metadataErrors(kind, metadata);
}

/** What is wrong with `metadata` read as `kind`: unknown fields, missing required ones, values breaking their rule. */
export function metadataErrors(kind: NotificationKind, metadata: Record<string, unknown>): FieldError[] {
  const { fields } = METADATA_SCHEMAS[kind];
  const errors: FieldError[] = requiredErrors(kind, metadata);
  for (const [key, value] of Object.entries(metadata)) {
    const field = `metadata.${key}`;
    const rule = ruleOf(fields, key);
    if (!rule) {
      errors.push({ field, message: `${field} is not a field of ${kind} notifications` });
      continue;
    }
    const problem = value === undefined || value === null ? null : rule(value);
    if (problem) errors.push({ field, message: `${field} ${problem}` });
  }
  return errors;
}

function requiredErrors(kind: NotificationKind | null, metadata: Record<string, unknown>): FieldError[] {
  const required = kind ? (METADATA_SCHEMAS[kind].required ?? []) : [];
  return required.filter((key) => metadata[key] === undefined || metadata[key] === null).map((key) => ({ field: `metadata.${key}`, message: `metadata.${key} is required for ${kind} notifications` }));
}
