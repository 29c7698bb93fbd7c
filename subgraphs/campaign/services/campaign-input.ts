import { FieldError } from '../../../core/errors';
import { CAMPAIGN_TYPES, CampaignRules } from '../entities/campaign';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
export const MAX_NAME = 200;
export const MAX_TEXT = 5000;
export const MAX_AMOUNT = 1e12;

/** An ISO 8601 timestamp, or a bare date (its start, or with `endOfDay` its last second, UTC); null when neither. */
export function parseCampaignDate(value: unknown, endOfDay = false): Date | null {
  if (typeof value !== 'string') return null;
  if (DATE_ONLY.test(value)) {
    const date = new Date(`${value}T${endOfDay ? '23:59:59' : '00:00:00'}Z`);
    return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? null : date;
  }
  if (!TIMESTAMP.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);
const isPositiveInteger = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 1;

export function checkName(value: unknown, errors: FieldError[]): void {
  if (typeof value !== 'string' || value.trim().length === 0 || value.length > MAX_NAME) errors.push({ field: 'name', message: `name is 1 to ${MAX_NAME} characters` });
}

export function checkType(value: unknown, errors: FieldError[]): void {
  if (typeof value !== 'string' || !(CAMPAIGN_TYPES as readonly string[]).includes(value)) errors.push({ field: 'type', message: `type is one of ${CAMPAIGN_TYPES.join(', ')}` });
}

export function checkDescription(value: unknown, errors: FieldError[]): void {
  if (value !== null && (typeof value !== 'string' || value.length > MAX_TEXT)) errors.push({ field: 'description', message: `description is at most ${MAX_TEXT} characters` });
}

/** `{type: points, value: whole points ≥ 1, unit: points}` or `{type: reward, value: <reward id>}`; the checked object, or undefined after adding its errors. */
export function checkReward(value: unknown, errors: FieldError[]): Record<string, unknown> | null | undefined {
  if (value === null) return null;
  if (!isPlainObject(value)) return void errors.push({ field: 'reward', message: 'reward is an object {type, value, unit}' });
  const before = errors.length;
  const unknownKeys = Object.keys(value).filter((key) => !['type', 'value', 'unit'].includes(key));
  for (const key of unknownKeys) errors.push({ field: `reward.${key}`, message: `reward has no field ${key}` });
  if (value.type === 'points') {
    if (!isPositiveInteger(value.value) || value.value > MAX_AMOUNT) errors.push({ field: 'reward.value', message: 'reward.value is a whole number of points, at least 1' });
    if (value.unit !== undefined && value.unit !== null && value.unit !== 'points') errors.push({ field: 'reward.unit', message: 'reward.unit of a points reward is points' });
  } else if (value.type === 'reward') {
    if (typeof value.value !== 'string' || value.value.length === 0 || value.value.length > 256) errors.push({ field: 'reward.value', message: 'reward.value of a reward is a reward id' });
    if (value.unit !== undefined && value.unit !== null && typeof value.unit !== 'string') errors.push({ field: 'reward.unit', message: 'reward.unit is a string' });
  } else {
    errors.push({ field: 'reward.type', message: 'reward.type is one of points, reward' });
  }
  if (errors.length > before) return undefined;
  return value.type === 'points' ? { type: 'points', value: value.value, unit: 'points' } : { type: 'reward', value: value.value, unit: value.unit ?? null };
}

/** `{minPurchase > 0 (2 decimals), maxUses ≥ 1, perCustomerLimit ≥ 1}`, each absent or null for its default: none, none, 1. */
export function checkRules(value: unknown, errors: FieldError[]): CampaignRules | undefined {
  if (value === null) value = {};
  if (!isPlainObject(value)) return void errors.push({ field: 'rules', message: 'rules is an object {min_purchase, max_uses, per_customer_limit}' });
  const before = errors.length;
  for (const key of Object.keys(value).filter((key) => !['minPurchase', 'maxUses', 'perCustomerLimit'].includes(key))) errors.push({ field: `rules.${key}`, message: `rules has no field ${key}` });
  const { minPurchase = null, maxUses = null } = value;
  const perCustomerLimit = value.perCustomerLimit ?? 1;
  if (minPurchase !== null && (typeof minPurchase !== 'number' || !(minPurchase > 0) || minPurchase > MAX_AMOUNT || Math.round(minPurchase * 100) / 100 !== minPurchase)) {
    errors.push({ field: 'rules.minPurchase', message: 'rules.min_purchase is an amount above 0 with at most 2 decimals' });
  }
  if (maxUses !== null && !isPositiveInteger(maxUses)) errors.push({ field: 'rules.maxUses', message: 'rules.max_uses is a whole number, at least 1' });
  if (!isPositiveInteger(perCustomerLimit)) errors.push({ field: 'rules.perCustomerLimit', message: 'rules.per_customer_limit is a whole number, at least 1' });
  if (errors.length > before) return undefined;
  return { minPurchase: minPurchase as number | null, maxUses: maxUses as number | null, perCustomerLimit: perCustomerLimit as number };
}

/**
 * A PATCH's `rules` over the campaign's: the keys given replace theirs, an explicit null clears one (back
 * to its default: no `minPurchase`, no `maxUses`, `perCustomerLimit` 1), the keys left out stay; `rules:
 * null` clears them all. Checked as a whole afterwards (unknown keys still named).
 */
export function mergeRules(current: CampaignRules, patch: unknown): unknown {
  return isPlainObject(patch) ? { ...current, ...patch } : patch;
}

/** `{banner, terms}`: strings (a banner URL, the terms' text). */
export function checkContent(value: unknown, errors: FieldError[]): Record<string, unknown> | null | undefined {
  if (value === null) return null;
  if (!isPlainObject(value)) return void errors.push({ field: 'content', message: 'content is an object {banner, terms}' });
  const before = errors.length;
  for (const key of Object.keys(value)) {
    if (!['banner', 'terms'].includes(key)) errors.push({ field: `content.${key}`, message: `content has no field ${key}` });
    else if (value[key] !== null && (typeof value[key] !== 'string' || (value[key] as string).length > MAX_TEXT)) errors.push({ field: `content.${key}`, message: `content.${key} is a string of at most ${MAX_TEXT} characters` });
  }
  return errors.length > before ? undefined : { banner: value.banner ?? null, terms: value.terms ?? null };
}
