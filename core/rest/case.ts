/**
 * The spelling of the v1 surface: snake_case keys and timestamps without milliseconds, written once for
 * every v1 route (answers), and camelCase keys for what a v1 caller sends (query strings and bodies).
 */

const ISO_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d+Z$/;

/** `pointBalance` → `point_balance`; `name_en` stays. */
export const snakeCase = (key: string): string => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
/** `date_from` → `dateFrom`; a key without underscores stays. */
export const camelCase = (key: string): string => key.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());

/** An ISO 8601 UTC timestamp without its fraction of a second; any other value unchanged. */
export function v1Timestamp(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace(/\.\d+Z$/, 'Z');
  if (typeof value !== 'string') return value;
  const match = ISO_TIMESTAMP.exec(value);
  return match ? `${match[1]}Z` : value;
}

/** An event's ISO timestamp as v1 spells it (`2026-11-23T06:36:33.120Z` → `2026-11-23T06:36:33Z`); null when absent. */
export const v1Time = (iso: string | Date | null | undefined): string | null => (iso ? (v1Timestamp(new Date(iso)) as string) : null);

/** A ledger's decimal string as v1 whole points (display only, never summed): `-12.50` → 12. */
export const wholePoints = (amount: string | number | null | undefined): number => Math.trunc(Math.abs(Number(amount ?? 0))) || 0;

/** A decimal string (an amount of money) as a v1 number. */
export const v1Amount = (amount: string | null | undefined): number => Number(amount ?? 0);

/** A payload as the v1 surface answers it: keys in snake_case, timestamps without milliseconds, at every depth. */
export function toV1(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toV1);
  if (value instanceof Date) return v1Timestamp(value);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [snakeCase(key), toV1(item)]));
  return v1Timestamp(value);
}

/** What a v1 caller sent, with camelCase keys at every depth (values untouched). */
export function fromV1(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromV1);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [camelCase(key), fromV1(item)]));
  return value;
}

/** A field path of the operation (`address.postCode`, `awards.2.points`) as the caller spelled it (`address.post_code`, `awards[2].points`). */
export const v1FieldPath = (field: string): string =>
  // A header (`Idempotency-Key`) is named as it is spelled.
  field.includes('-') ? field : field
    .split('.')
    .map((segment, index) => (/^\d+$/.test(segment) ? `[${segment}]` : `${index > 0 ? '.' : ''}${snakeCase(segment)}`))
    .join('');
