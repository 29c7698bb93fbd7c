import { Reward } from '../entities/reward';
import { RewardCatalog, TierCondition } from '../entities/reward-catalog';
import { RedeemReason, RedeemRefusal } from '../types/redemption.types';
import { inStock } from './catalog-status';

/** What the member's domain answers of it through the supergraph: its tier (cluster) and balance (point). */
export interface RedeemingMember {
  tierId: string | null;
  /** Points held now; a decimal string or number with at most 2 decimals. */
  pointBalance: string | number;
}

/** Everything the rules of a catalog look at, for one member at one moment. */
export interface RedeemFacts {
  catalog: Pick<RewardCatalog, 'isActive' | 'windowStart' | 'windowEnd' | 'pointUsage' | 'limitPerUser' | 'quota' | 'tierCondition' | 'tierRequirement'>;
  /** The catalog's reward, deleted or not (null: gone). */
  reward: Pick<Reward, 'isActive' | 'deletedAt' | 'stockType' | 'stock' | 'windowEnd'> | null;
  member: RedeemingMember;
  /** The member's redemptions of the catalog that are not FAILED. */
  redeemedByMember: number;
  /** The catalog's redemptions that are not FAILED, by any member, in the quota's period of `now`. */
  redeemedInPeriod: number;
  /** Units asked for at once (1 unless given): each counts against stock, limits and quota, and costs `pointUsage`. */
  quantity?: number;
}

const DAY_MS = 24 * 3600 * 1000;
/** The Monday weeks are counted from (1970-01-05, UTC). */
const FIRST_MONDAY_MS = 4 * DAY_MS;

/**
 * The quota period holding `now`: `numberInPeriod` whole days, weeks (from Monday), months or years in
 * UTC, counted from 1970 (so `month` × 1 is the calendar month, × 3 the calendar quarter, `year` × 1
 * the calendar year). [start, end).
 */
export function quotaPeriod(type: string, numberInPeriod: number, now: Date): { start: Date; end: Date } {
  const n = numberInPeriod;
  const t = now.getTime();
  switch (type) {
    case 'day': {
      const index = Math.floor(t / (n * DAY_MS));
      return { start: new Date(index * n * DAY_MS), end: new Date((index + 1) * n * DAY_MS) };
    }
    case 'week': {
      const span = n * 7 * DAY_MS;
      const index = Math.floor((t - FIRST_MONDAY_MS) / span);
      return { start: new Date(FIRST_MONDAY_MS + index * span), end: new Date(FIRST_MONDAY_MS + (index + 1) * span) };
    }
    case 'month': {
      const months = now.getUTCFullYear() * 12 + now.getUTCMonth();
      const first = months - (((months % n) + n) % n);
      return { start: utcMonth(first), end: utcMonth(first + n) };
    }
    case 'year': {
      const year = now.getUTCFullYear();
      const first = year - (year % n);
      return { start: utcMonth(first * 12), end: utcMonth((first + n) * 12) };
    }
    default:
      throw new Error(`Unknown quota type "${type}"`);
  }
}

/** The first instant of a month counted from January of year 0, UTC (Date.UTC would read years 0 to 99 as 1900 to 1999). */
function utcMonth(months: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(Math.floor(months / 12), months % 12, 1);
  return date;
}

/** An amount with at most 2 decimals, in hundredths: exact for every amount the platform stores. */
export const hundredths = (value: string | number): number => Math.round(Number(value) * 100);

/**
 * Every rule of the catalog that stops the member from redeeming it at `now`, in a fixed order; none
 * means it may. The rules: the catalog and its reward are active; `now` is within the catalog's window
 * (and the reward can still be used); a unit is in stock; the member is under `limitPerUser`; the period
 * is under the quota; the member's tier is among the INCLUDE tiers (a member without a tier is not) or
 * not among the EXCLUDE tiers; the balance covers `pointUsage`.
 */
export function redeemRefusals(facts: RedeemFacts, now: Date): RedeemReason[] {
  const { catalog, reward, member } = facts;
  const quantity = facts.quantity ?? 1;
  const reasons: RedeemReason[] = [];
  const refuse = (code: RedeemRefusal, message: string) => reasons.push({ code, message });

  if (!catalog.isActive) refuse(RedeemRefusal.INACTIVE, 'This reward catalog is not active');
  else if (reward && !reward.deletedAt && !reward.isActive) refuse(RedeemRefusal.INACTIVE, 'The reward of this catalog is not active');

  if (catalog.windowStart && catalog.windowStart > now) refuse(RedeemRefusal.OUTSIDE_WINDOW, `This reward catalog opens at ${catalog.windowStart.toISOString()}`);
  else if (catalog.windowEnd && catalog.windowEnd < now) refuse(RedeemRefusal.OUTSIDE_WINDOW, `This reward catalog closed at ${catalog.windowEnd.toISOString()}`);
  else if (reward?.windowEnd && reward.windowEnd <= now) refuse(RedeemRefusal.OUTSIDE_WINDOW, `The reward could be used until ${reward.windowEnd.toISOString()}`);

  if (!inStock(reward)) refuse(RedeemRefusal.OUT_OF_STOCK, 'The reward is out of stock');
  else if (reward && reward.stockType === 'LIMITED' && reward.stock < quantity) refuse(RedeemRefusal.OUT_OF_STOCK, `Only ${reward.stock} of the reward are left`);

  if (catalog.limitPerUser !== null && facts.redeemedByMember + quantity > catalog.limitPerUser) {
    refuse(RedeemRefusal.LIMIT_PER_USER_REACHED, `The member has redeemed this catalog ${facts.redeemedByMember} times, its limit per member`);
  }
  const quota = catalog.quota;
  if (quota && facts.redeemedInPeriod + quantity > quota.limitPerPeriod) {
    const { end } = quotaPeriod(quota.type, quota.numberInPeriod, now);
    refuse(RedeemRefusal.QUOTA_REACHED, `The quota of ${quota.limitPerPeriod} redemptions is used up until ${end.toISOString()}`);
  }

  const listed = member.tierId !== null && catalog.tierRequirement.includes(member.tierId);
  if (catalog.tierCondition === TierCondition.INCLUDE && !listed) refuse(RedeemRefusal.TIER_NOT_INCLUDED, "The member's tier may not redeem this catalog");
  if (catalog.tierCondition === TierCondition.EXCLUDE && listed) refuse(RedeemRefusal.TIER_EXCLUDED, "The member's tier is excluded from this catalog");

  if (hundredths(member.pointBalance) < hundredths(catalog.pointUsage) * quantity) {
    refuse(RedeemRefusal.NOT_ENOUGH_POINTS, `Redeeming needs ${(hundredths(catalog.pointUsage) * quantity) / 100} points; the balance is ${Number(member.pointBalance)}`);
  }
  return reasons;
}
