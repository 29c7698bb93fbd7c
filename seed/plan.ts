import { DAY_MS } from './days';
import { DemoPerson, pickWeighted, Spender } from './people';
import { CATEGORIES, DemoReward, DemoVenue, REWARDS, STORES, VENUES } from './program';
import { Random } from './random';

/** How far back the purchases go: about six months. */
const HISTORY_DAYS = 180;

export interface PlannedPurchase {
  /** The retailer's id of the purchase: recorded once per store, whoever records it again. */
  externalId: string;
  storeId: string;
  category: string;
  /** Baht, exact, with two decimals. */
  amount: string;
  /** When it happened (ISO 8601); none for a purchase made now. */
  occurredAt?: string;
}

export interface PlannedRedemption {
  reward: DemoReward;
  /** Whether the member already used the code at the till. */
  used: boolean;
}

export interface PlannedBooking {
  venue: DemoVenue;
  /** Days after the run's day. */
  inDays: number;
  time: string;
  guests: number;
}

/** What one member does in the demo, the same on every run. */
export interface MemberPlan {
  purchases: PlannedPurchase[];
  redemptions: PlannedRedemption[];
  newsletter: boolean;
  /** Joins the campaign; with `campaignPurchase`, then shops once and completes it. */
  joinsCampaign: boolean;
  campaignPurchase?: PlannedPurchase;
  booking?: PlannedBooking;
}

/** Purchases a member of each kind makes over the history, and their size in satang. */
const SPENDING: Record<Spender, { purchases: [number, number]; satang: [number, number] }> = {
  occasional: { purchases: [1, 5], satang: [15_000, 150_000] },
  regular: { purchases: [4, 10], satang: [50_000, 350_000] },
  vip: { purchases: [10, 16], satang: [150_000, 900_000] },
};

/** Satang as baht with two decimals: 129050 → "1290.50". */
export function bahtOf(satang: number): string {
  return `${Math.floor(satang / 100)}.${String(satang % 100).padStart(2, '0')}`;
}

/** A price in satang between the bounds, ending in 0, 25, 50 or 75 satang as shop prices do. */
function priceIn(random: Random, [low, high]: [number, number]): number {
  return random.int(low / 25, high / 25) * 25;
}

function purchase(random: Random, externalId: string, satang: number, occurredAt?: Date): PlannedPurchase {
  return {
    externalId,
    storeId: pickWeighted(random, STORES).id,
    category: random.pick(CATEGORIES),
    amount: bahtOf(satang),
    occurredAt: occurredAt?.toISOString(),
  };
}

/** The member's purchases over the last months, oldest first, in shop hours (10:00 to 21:00 in Bangkok, UTC+7). */
function historyOf(person: DemoPerson, random: Random, today: Date): { purchases: PlannedPurchase[]; satang: number[] } {
  const spending = SPENDING[person.spender];
  const count = random.int(...spending.purchases);
  const daysAgo = Array.from({ length: count }, () => random.int(1, HISTORY_DAYS)).sort((a, b) => b - a);
  const satang = daysAgo.map(() => priceIn(random, spending.satang));
  const purchases = daysAgo.map((days, n) => {
    const at = new Date(today.getTime() - days * DAY_MS + random.int(3 * 60, 14 * 60) * 60_000);
    return purchase(random, `demo-${person.key}-${String(n + 1).padStart(2, '0')}`, satang[n], at);
  });
  return { purchases, satang };
}

/**
 * Rewards the member redeems, chosen only among those its purchases surely paid for: every shop earns
 * at least one point per whole baht, so the whole baht of its purchases bound its points from below
 * (a plan that never meets a refusal for points, whatever the order the platform applies things in).
 */
function redemptionsOf(random: Random, satang: number[]): PlannedRedemption[] {
  let points = satang.reduce((sum, amount) => sum + Math.floor(amount / 100), 0);
  const redemptions: PlannedRedemption[] = [];
  for (const reward of REWARDS) {
    if (reward.tiersOnly || reward.pointUsage > points || !random.chance(0.3)) continue;
    points -= reward.pointUsage;
    redemptions.push({ reward, used: random.chance(0.35) });
  }
  return redemptions;
}

/** A booking at one of the venues, 2 to 8 days ahead (always a later service day, whatever the venue's time zone). */
function bookingOf(random: Random): PlannedBooking {
  const venue = random.pick(VENUES);
  const [open] = venue.openingTime.split(':').map(Number);
  const [close] = venue.closingTime.split(':').map(Number);
  const slots = ((close - open) * 60) / venue.slotMinutes;
  const start = open * 60 + random.int(0, slots - 1) * venue.slotMinutes;
  return {
    venue,
    inDays: random.int(2, 8),
    time: `${String(Math.floor(start / 60)).padStart(2, '0')}:${String(start % 60).padStart(2, '0')}`,
    guests: random.int(1, venue.maxGuests),
  };
}

/** Member `person`'s plan; `today` is the run's day (UTC midnight), from which the history goes back. */
export function memberPlan(person: DemoPerson, today: Date): MemberPlan {
  const random = new Random(`plan:${person.index}`);
  const { purchases, satang } = historyOf(person, random, today);
  const joinsCampaign = random.chance(0.12);
  const converts = joinsCampaign && random.chance(0.6);
  return {
    purchases,
    redemptions: redemptionsOf(random, satang),
    newsletter: random.chance(0.35),
    joinsCampaign,
    campaignPurchase: converts ? purchase(random, `demo-${person.key}-campaign`, priceIn(random, SPENDING[person.spender].satang)) : undefined,
    booking: random.chance(0.08) ? bookingOf(random) : undefined,
  };
}
