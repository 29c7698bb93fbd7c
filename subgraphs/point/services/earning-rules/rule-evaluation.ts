import { fromUnits, minUnits, toUnits } from '../../../../core/decimal';
import { ATTRIBUTE_FACT, Comparison, Condition, FactName, FACTS, Period, RuleDefinition, Trigger } from './rule-definition';

/**
 * The evaluation of earning rules: pure, the same for a dry run (`simulate`) and for a real write, so
 * that what a simulation answers is what the write records. The caller gathers the facts and the usage
 * (the database's part, under the member's lock for a write); this decides which rules apply and what
 * each earns, in whole points, with exact decimals (core/decimal.ts).
 */

/** One version of a rule, as the rule book holds it. */
export interface RuleVersion {
  ruleId: string;
  version: number;
  createdAt: Date;
  definition: RuleDefinition;
  /** Points the rule's budget has left (all members), when it has a budget. */
  budgetLeft?: bigint;
}

/** What is known of the member and of what happened. Optional facts are gathered only when a rule tests them. */
export interface Facts {
  trigger: Trigger;
  occurredAt: Date;
  /** The purchase's money, a decimal string with 2 decimals. */
  amount?: string;
  storeId?: string | null;
  category?: string | null;
  /** What the purchase earned by its shop rule (the base of a multiplier), a decimal string. */
  basePoints?: string;
  tierId?: string | null;
  segmentIds?: string[];
  birthMonth?: number | null;
  firstInCategory?: boolean;
  /** On a referral's completion, which side the member is. */
  referralRole?: ReferralRole;
  /** A custom event's attributes, as its type declares them. */
  attributes?: Record<string, string | number | boolean>;
}

/** The sides of a referral. */
export const REFERRAL_ROLES = ['referrer', 'referred'] as const;
export type ReferralRole = (typeof REFERRAL_ROLES)[number];

/** How much of a rule's member limits is used in the periods around the event: applications and whole points. */
export type MemberUsage = Partial<Record<Period, { count: number; points: bigint }>>;

/** Why a rule whose conditions held earned nothing. */
export type SkipReason = 'limit' | 'budget' | 'not_stacking' | 'zero';

export interface RuleOutcome {
  ruleId: string;
  version: number;
  name: string;
  /** Whole points, as a decimal string with 2 decimals ("150.00"); "0.00" when skipped. */
  points: string;
  reason?: SkipReason;
}

/** The rules that applied, in order, and those whose conditions held but that earned nothing. */
export interface Evaluation {
  applied: RuleOutcome[];
  skipped: RuleOutcome[];
}

/** Rules in the order they are evaluated: higher priority first, then the older. */
export function evaluationOrder(rules: RuleVersion[]): RuleVersion[] {
  return [...rules].sort(
    (a, b) => b.definition.priority - a.definition.priority || a.createdAt.getTime() - b.createdAt.getTime() || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0),
  );
}

/** The facts the conditions of `rules` test (to gather only those). */
export function factsTested(rules: RuleVersion[]): Set<FactName> {
  const tested = new Set<FactName>();
  for (const rule of rules) {
    const pending: Array<Condition | null> = [rule.definition.conditions];
    for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
      if (node === null) continue;
      if ('all' in node) pending.push(...node.all);
      else if ('any' in node) pending.push(...node.any);
      else if ('not' in node) pending.push(node.not);
      else tested.add(node.fact as FactName);
    }
  }
  return tested;
}

const DAY_MS = 86_400_000;

/** The ISO weekday (1 Monday .. 7 Sunday) of a time, in UTC. */
const weekdayOf = (at: Date): number => ((at.getUTCDay() + 6) % 7) + 1;

/** Where the period that holds `at` starts (UTC days, ISO weeks from Monday, calendar months); null for lifetime. */
export function periodStart(period: Period, at: Date): Date | null {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  if (period === 'day') return day;
  if (period === 'week') return new Date(day.getTime() - (weekdayOf(at) - 1) * DAY_MS);
  if (period === 'month') return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  return null;
}

/** Where the period that holds `at` ends (exclusive); null for lifetime. */
export function periodEnd(period: Period, at: Date): Date | null {
  const start = periodStart(period, at);
  if (!start) return null;
  if (period === 'day') return new Date(start.getTime() + DAY_MS);
  if (period === 'week') return new Date(start.getTime() + 7 * DAY_MS);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

/** The decimals of a number fact: amounts 2, weekdays 0, a custom event's number attributes 4. */
const scaleOf = (fact: string): number => (fact.startsWith(ATTRIBUTE_FACT) ? 4 : (FACTS[fact].scale ?? 0));

/** A fact's value for comparison: numbers as exact units (core/decimal), times in milliseconds, sets as sets; null when unknown. */
function factValue(fact: string, facts: Facts): bigint | number | string | boolean | Set<string> | null {
  if (fact.startsWith(ATTRIBUTE_FACT)) {
    const attributes = facts.attributes ?? {};
    const name = fact.slice(ATTRIBUTE_FACT.length);
    const value = Object.prototype.hasOwnProperty.call(attributes, name) ? attributes[name] : null;
    return typeof value === 'number' ? toUnits(value, scaleOf(fact)) : value;
  }
  switch (fact) {
    case 'amount':
      return facts.amount === undefined ? null : toUnits(facts.amount, 2);
    case 'store_id':
      return facts.storeId ?? null;
    case 'category':
      return facts.category ?? null;
    case 'occurred_at':
      return facts.occurredAt.getTime();
    case 'weekday':
      return BigInt(weekdayOf(facts.occurredAt));
    case 'tier':
      return facts.tierId ?? null;
    case 'segments':
      return new Set(facts.segmentIds ?? []);
    case 'birthday_month':
      return facts.birthMonth != null && facts.birthMonth === facts.occurredAt.getUTCMonth() + 1;
    case 'first_in_category':
      return facts.firstInCategory ?? false;
    case 'referral_role':
      return facts.referralRole ?? null;
    default:
      return null;
  }
}

/** A condition's value in the fact's terms (numbers as exact units, timestamps in milliseconds). */
function operand(fact: string, value: unknown): bigint | number | string | boolean {
  if (typeof value === 'number') return toUnits(value, scaleOf(fact))!;
  if (fact === 'occurred_at') return Date.parse(value as string);
  return value as string | boolean;
}

function compare(comparison: Comparison, facts: Facts): boolean {
  const { fact, op, value } = comparison;
  const actual = factValue(fact, facts);
  if (actual instanceof Set) return op === 'contains' ? actual.has(value as string) : !actual.has(value as string);
  if (op === 'in' || op === 'not_in') {
    const found = actual !== null && (value as unknown[]).some((item) => operand(fact, item) === actual);
    return op === 'in' ? found : !found;
  }
  if (op === 'ne') return actual !== operand(fact, value);
  if (actual === null) return false;
  if (op === 'eq') return actual === operand(fact, value);
  if (op === 'between') {
    const [from, to] = (value as unknown[]).map((bound) => operand(fact, bound));
    // Times are half-open ([from, to)), so that consecutive windows never overlap; numbers include both bounds.
    return fact === 'occurred_at' ? actual >= from && actual < to : actual >= from && actual <= to;
  }
  const other = operand(fact, value);
  if (op === 'gt') return actual > other;
  if (op === 'gte') return actual >= other;
  if (op === 'lt') return actual < other;
  return actual <= other;
}

/** Whether a condition holds; no condition always holds. Recursion is bounded: conditions nest at most `CONDITION_LIMITS.depth` levels. */
export function holds(condition: Condition | null, facts: Facts): boolean {
  if (condition === null) return true;
  if ('all' in condition) return condition.all.every((child) => holds(child, facts));
  if ('any' in condition) return condition.any.some((child) => holds(child, facts));
  if ('not' in condition) return !holds(condition.not, facts);
  return compare(condition, facts);
}

/** The whole points a rule's effect gives before limits: fixed, per amount or a multiple of the base earn, capped. */
export function effectPoints(definition: RuleDefinition, facts: Facts): bigint {
  const effect = definition.effect;
  let points: bigint;
  if (effect.type === 'fixed') points = BigInt(effect.points);
  else if (effect.type === 'per_amount') points = ((toUnits(facts.amount ?? '0', 2) ?? 0n) * toUnits(effect.rate, 4)!) / 1_000_000n;
  else points = ((toUnits(facts.basePoints ?? '0', 2) ?? 0n) * (toUnits(effect.factor, 4)! - 10_000n)) / 1_000_000n;
  return effect.maxPoints === undefined ? points : minUnits(points, BigInt(effect.maxPoints));
}

/** Points a rule may still give the member under its limits (null: no points limit); `blocked` when a count limit is reached. */
function memberRoom(definition: RuleDefinition, usage: MemberUsage | undefined): { blocked: boolean; room: bigint | null } {
  let room: bigint | null = null;
  for (const limit of definition.limits.member ?? []) {
    const used = usage?.[limit.period] ?? { count: 0, points: 0n };
    if (limit.count !== undefined && used.count >= limit.count) return { blocked: true, room: 0n };
    if (limit.points !== undefined) {
      const left = BigInt(limit.points) - used.points;
      room = room === null ? left : minUnits(room, left);
    }
  }
  return { blocked: false, room };
}

const asPoints = (points: bigint) => fromUnits(points * 100n, 2);

/**
 * Which of `rules` apply to what happened, in evaluation order: a rule whose conditions hold earns its
 * effect's points, reduced to what its member limits and its budget leave; a rule reduced to nothing, or
 * whose count limit is reached, is skipped; after a rule that does not stack applies, no later rule does.
 */
export function evaluate(rules: RuleVersion[], facts: Facts, usage: ReadonlyMap<string, MemberUsage>): Evaluation {
  const evaluation: Evaluation = { applied: [], skipped: [] };
  let closed = false;
  for (const rule of evaluationOrder(rules)) {
    const { definition } = rule;
    if (definition.trigger !== facts.trigger || !holds(definition.conditions, facts)) continue;
    const outcome = { ruleId: rule.ruleId, version: rule.version, name: definition.name };
    if (closed) {
      evaluation.skipped.push({ ...outcome, points: asPoints(0n), reason: 'not_stacking' });
      continue;
    }
    let points = effectPoints(definition, facts);
    let reason: SkipReason = 'zero';
    const { blocked, room } = memberRoom(definition, usage.get(rule.ruleId));
    if (blocked || (room !== null && room < points)) [points, reason] = [blocked ? 0n : minUnits(points, room!), 'limit'];
    if (rule.budgetLeft !== undefined && rule.budgetLeft < points) [points, reason] = [rule.budgetLeft, 'budget'];
    if (points <= 0n) {
      evaluation.skipped.push({ ...outcome, points: asPoints(0n), reason });
      continue;
    }
    evaluation.applied.push({ ...outcome, points: asPoints(points) });
    if (!definition.stacks) closed = true;
  }
  return evaluation;
}
