/**
 * Exact decimal arithmetic for rules that must be evaluated outside SQL (an earning rule's conditions
 * and effect, evaluated the same way by a dry run and a real write): a decimal is an integer count of
 * 10^-scale units, a `bigint`, so sums, products and comparisons never round.
 */

const PLAIN_DECIMAL = /^(-?)(\d{1,15})(?:\.(\d+))?$/;

/**
 * A decimal string, or a JSON number as JavaScript prints it, as a count of 10^-scale units; null when
 * it is not a plain decimal (an exponent, a NaN, text) or has more than `scale` decimals.
 */
export function toUnits(value: unknown, scale: number): bigint | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const match = PLAIN_DECIMAL.exec(String(value));
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const digits = fraction.replace(/0+$/, '');
  if (digits.length > scale) return null;
  const units = BigInt(whole) * 10n ** BigInt(scale) + BigInt(digits.padEnd(scale, '0') || '0');
  return sign ? -units : units;
}

/** A count of 10^-scale units as a decimal string with `scale` decimals (`12345n, 2` → `123.45`). */
export function fromUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** The smaller of two unit counts. */
export const minUnits = (a: bigint, b: bigint): bigint => (a < b ? a : b);
