import { toUnits } from '../../../../core/decimal';
import { FieldError } from '../../../../core/errors';
import { MAX_POINTS } from '../../types/point.types';

/**
 * The earning-rule format: what a marketer writes, as data (docs/decisions.md, "Issue 29: earning rules").
 * A rule has a trigger, conditions (an expression over typed facts), an effect and limits. Everything a
 * client sends is checked here, on write, with one field error per bad path (`conditions.all.1.value`);
 * evaluation (rule-evaluation.ts) then trusts it.
 */

/**
 * What a rule reacts to: a purchase (a v1 transaction or an approved receipt), a booking's check-in, a
 * customer's creation (events of other domains), a referral's completion (each side once), or a custom
 * event of a declared type (`custom_event:<type>`).
 */
export const FIXED_TRIGGERS = ['purchase', 'booking.checked_in', 'customer.created', 'referral.completed'] as const;
export const CUSTOM_EVENT = 'custom_event:';
export type Trigger = (typeof FIXED_TRIGGERS)[number] | `custom_event:${string}`;

/** The kinds of a custom event's attributes. */
export const ATTRIBUTE_KINDS = ['string', 'number', 'boolean'] as const;
export type AttributeKind = (typeof ATTRIBUTE_KINDS)[number];
/** A custom event type's attributes, by name: their kind and whether an event must carry them. */
export type EventAttributes = Record<string, { type: AttributeKind; required?: boolean }>;

/** What a rule is checked against besides itself: the live custom event types and their attributes. */
export interface RuleContext {
  eventTypes: ReadonlyMap<string, EventAttributes>;
}

/** The kinds of value a fact holds, and the operators each takes. */
const OPERATORS = {
  number: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'not_in'],
  string: ['eq', 'ne', 'in', 'not_in'],
  boolean: ['eq'],
  timestamp: ['gte', 'lt', 'between'],
  set: ['contains', 'not_contains'],
} as const;
export type FactKind = keyof typeof OPERATORS;
export type Operator = (typeof OPERATORS)[FactKind][number];

/** A fact's kind; a number's decimals (amounts 2, weekdays 0, attributes 4); the one trigger that has it, if only one does. */
export interface FactType {
  kind: FactKind;
  scale?: number;
  only?: 'purchase' | 'referral.completed';
}

/**
 * The facts a condition may test:
 * - `amount`: the purchase's money (2 decimals); `store_id`, `category`: the purchase's;
 * - `occurred_at`: when it happened; `weekday`: its ISO weekday in UTC (1 Monday .. 7 Sunday);
 * - `tier`: the member's tier id (null without one); `segments`: the ids of the member's segments;
 * - `birthday_month`: it happened in the member's birth month; `first_in_category`: the member's first
 *   purchase in its category;
 * - `referral_role`: on a referral's completion, which side the member is (`referrer` or `referred`);
 * - `attributes.<name>`: a custom event's attribute, of the kind its type declares.
 */
export const FACTS: Record<string, FactType> = {
  amount: { kind: 'number', scale: 2, only: 'purchase' },
  store_id: { kind: 'string', only: 'purchase' },
  category: { kind: 'string', only: 'purchase' },
  occurred_at: { kind: 'timestamp' },
  weekday: { kind: 'number', scale: 0 },
  tier: { kind: 'string' },
  segments: { kind: 'set' },
  birthday_month: { kind: 'boolean' },
  first_in_category: { kind: 'boolean', only: 'purchase' },
  referral_role: { kind: 'string', only: 'referral.completed' },
};
export const ATTRIBUTE_FACT = 'attributes.';
const ATTRIBUTE_SCALE = 4;
export type FactName = string;

/** A custom event type's name out of its trigger; undefined for another trigger. */
export const eventTypeOf = (trigger: string): string | undefined => (trigger.startsWith(CUSTOM_EVENT) ? trigger.slice(CUSTOM_EVENT.length) : undefined);

/** The type of a fact a condition names, for a trigger; a message saying why not when it has none. */
export function factType(fact: string, trigger: Trigger, context: RuleContext): FactType | string {
  if (fact.startsWith(ATTRIBUTE_FACT)) {
    const eventType = eventTypeOf(trigger);
    if (eventType === undefined) return `is known only for custom events (the trigger is ${trigger})`;
    const attribute = Object.prototype.hasOwnProperty.call(context.eventTypes.get(eventType) ?? {}, fact.slice(ATTRIBUTE_FACT.length))
      ? context.eventTypes.get(eventType)![fact.slice(ATTRIBUTE_FACT.length)]
      : undefined;
    if (!attribute) return `is not an attribute of the event type ${eventType}`;
    return attribute.type === 'number' ? { kind: 'number', scale: ATTRIBUTE_SCALE } : { kind: attribute.type };
  }
  const known = Object.prototype.hasOwnProperty.call(FACTS, fact) ? FACTS[fact] : undefined;
  if (!known) return `must be one of ${Object.keys(FACTS).join(', ')}, or attributes.<name> of a custom event`;
  if (known.only && trigger !== known.only) return `is known only for ${known.only === 'purchase' ? 'purchases' : known.only} (the trigger is ${trigger})`;
  return known;
}

/** A test of one fact. */
export interface Comparison {
  fact: string;
  op: Operator;
  value: unknown;
}
/** A condition: a comparison, or every, any or none of others. */
export type Condition = Comparison | { all: Condition[] } | { any: Condition[] } | { not: Condition };

/** What an applied rule earns, in whole points, at most `maxPoints` when given. */
export type Effect =
  | { type: 'fixed'; points: number; maxPoints?: number }
  /** trunc(amount × rate): points per currency unit. */
  | { type: 'per_amount'; rate: number; maxPoints?: number }
  /** trunc(base × (factor − 1)): the purchase's base earn (its shop rule's points) `factor` times in all. */
  | { type: 'multiplier'; factor: number; maxPoints?: number };

export const PERIODS = ['day', 'week', 'month', 'lifetime'] as const;
export type Period = (typeof PERIODS)[number];

/** How often and how much a rule applies: per member and period (UTC days, ISO weeks, months), and a budget of points over everyone. */
export interface Limits {
  member?: Array<{ period: Period; count?: number; points?: number }>;
  budget?: number;
}

/** A rule's definition: everything a version of it fixes. */
export interface RuleDefinition {
  name: string;
  description: string | null;
  trigger: Trigger;
  conditions: Condition | null;
  effect: Effect;
  limits: Limits;
  /** Higher first; rules of one priority in the order they were created. */
  priority: number;
  /** false: once this rule applies, no rule after it does. */
  stacks: boolean;
  /** Days its points are held before they can be spent (0..365); null: the program's default for a purchase, 0 otherwise. */
  pendingDays: number | null;
}

/** How big a condition may grow: nodes in all, children of one `all`/`any`, depth, items of an `in` list. */
export const CONDITION_LIMITS = { nodes: 100, children: 20, depth: 6, listItems: 100 } as const;
const MAX_TEXT = 256;
const MAX_PRIORITY = 1000;
const MAX_RATE = 1000;
const MAX_FACTOR = 100;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
const own = (object: Record<string, unknown>, key: string): unknown => (Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined);
const isWhole = (value: unknown, min: number, max: number): value is number => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/** Field errors collected while walking what a client sent. */
class Problems {
  readonly errors: FieldError[] = [];
  add(field: string, message: string): void {
    this.errors.push({ field, message: `${field} ${message}` });
  }
  /** Keys of `object` other than `allowed`: each a problem (a typo must not be ignored silently). */
  unknownKeys(object: Record<string, unknown>, allowed: readonly string[], path: string): void {
    for (const key of Object.keys(object)) if (!allowed.includes(key)) this.add(`${path}.${key}`, `is not a field of ${path} (allowed: ${allowed.join(', ')})`);
  }
}

/** The value a fact of `type` can be compared with (one side of `between`, one item of `in`). */
function checkScalar(type: FactType, fact: string, value: unknown, path: string, problems: Problems): void {
  if (type.kind === 'number') {
    const ok =
      fact === 'weekday'
        ? isWhole(value, 1, 7)
        : typeof value === 'number' && Math.abs(value) <= MAX_POINTS && (fact !== 'amount' || value >= 0) && toUnits(value, type.scale ?? 0) !== null;
    if (!ok) {
      problems.add(
        path,
        fact === 'weekday'
          ? 'must be a whole number from 1 (Monday) to 7 (Sunday)'
          : `must be a number${fact === 'amount' ? ' from 0' : ''} up to ${MAX_POINTS} with at most ${type.scale} decimals`,
      );
    }
  } else if (type.kind === 'string') {
    if (typeof value !== 'string' || value.length < 1 || value.length > MAX_TEXT) problems.add(path, `must be a text of 1 to ${MAX_TEXT} characters`);
  } else if (type.kind === 'boolean') {
    if (typeof value !== 'boolean') problems.add(path, 'must be true or false');
  } else if (type.kind === 'timestamp') {
    if (typeof value !== 'string' || !TIMESTAMP.test(value) || Number.isNaN(Date.parse(value))) problems.add(path, 'must be an ISO 8601 timestamp with its offset (2026-12-01T00:00:00Z)');
  } else if (typeof value !== 'string' || value.length < 1 || value.length > MAX_TEXT) {
    problems.add(path, `must be an id of 1 to ${MAX_TEXT} characters`);
  }
}

function checkComparison(node: Record<string, unknown>, trigger: Trigger, context: RuleContext, path: string, problems: Problems): void {
  problems.unknownKeys(node, ['fact', 'op', 'value'], path);
  const fact = own(node, 'fact');
  const op = own(node, 'op');
  const value = own(node, 'value');
  if (typeof fact !== 'string') return problems.add(`${path}.fact`, 'must be the name of a fact');
  const type = factType(fact, trigger, context);
  if (typeof type === 'string') return problems.add(`${path}.fact`, type);
  const operators: readonly string[] = OPERATORS[type.kind];
  if (typeof op !== 'string' || !operators.includes(op)) return problems.add(`${path}.op`, `must be one of ${operators.join(', ')} for ${fact}`);
  if (op === 'between') {
    if (!Array.isArray(value) || value.length !== 2) return problems.add(`${path}.value`, 'must be a list of two bounds [from, to]');
    const before = problems.errors.length;
    value.forEach((bound, index) => checkScalar(type, fact, bound, `${path}.value.${index}`, problems));
    if (problems.errors.length > before) return;
    const [from, to] = value;
    const ordered = type.kind === 'timestamp' ? Date.parse(from as string) < Date.parse(to as string) : toUnits(from, type.scale ?? 0)! <= toUnits(to, type.scale ?? 0)!;
    if (!ordered) problems.add(`${path}.value`, 'must have its first bound before its second');
  } else if (op === 'in' || op === 'not_in') {
    if (!Array.isArray(value) || value.length < 1 || value.length > CONDITION_LIMITS.listItems) return problems.add(`${path}.value`, `must be a list of 1 to ${CONDITION_LIMITS.listItems} values`);
    value.forEach((item, index) => checkScalar(type, fact, item, `${path}.value.${index}`, problems));
  } else {
    checkScalar(type, fact, value, `${path}.value`, problems);
  }
}

/** Walks a condition without recursion, so that no nesting can overflow the stack; depth and size are bounded. */
function checkCondition(root: unknown, trigger: Trigger, context: RuleContext, problems: Problems): void {
  const pending: Array<[unknown, string, number]> = [[root, 'conditions', 1]];
  let nodes = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, path, depth] = next;
    if (++nodes > CONDITION_LIMITS.nodes) return problems.add('conditions', `must have at most ${CONDITION_LIMITS.nodes} nodes`);
    if (depth > CONDITION_LIMITS.depth) {
      problems.add(path, `nests deeper than ${CONDITION_LIMITS.depth} levels`);
      continue;
    }
    if (!isPlainObject(node)) {
      problems.add(path, 'must be an object: {fact, op, value}, {all: [...]}, {any: [...]} or {not: {...}}');
      continue;
    }
    const group = ['all', 'any', 'not'].find((key) => own(node, key) !== undefined);
    if (!group) {
      checkComparison(node, trigger, context, path, problems);
      continue;
    }
    problems.unknownKeys(node, [group], path);
    const children = node[group];
    if (group === 'not') {
      pending.push([children, `${path}.not`, depth + 1]);
    } else if (!Array.isArray(children) || children.length < 1 || children.length > CONDITION_LIMITS.children) {
      problems.add(`${path}.${group}`, `must be a list of 1 to ${CONDITION_LIMITS.children} conditions`);
    } else {
      for (let index = children.length - 1; index >= 0; index--) pending.push([children[index], `${path}.${group}.${index}`, depth + 1]);
    }
  }
}

/** A number above `above` and at most `max` with at most 4 decimals (exact in JSON, read exactly by core/decimal); undefined (and a problem) otherwise. */
function positiveRate(value: unknown, max: number, above: number, path: string, problems: Problems): number | undefined {
  const units = toUnits(value, 4);
  if (typeof value !== 'number' || units === null || units <= BigInt(above) * 10_000n || units > BigInt(max) * 10_000n) {
    problems.add(path, `must be a number above ${above} and at most ${max}, with at most 4 decimals`);
    return undefined;
  }
  return value;
}

function checkEffect(effect: unknown, trigger: Trigger, problems: Problems): Effect | undefined {
  if (!isPlainObject(effect)) return void problems.add('effect', 'must be an object with a type: fixed, per_amount or multiplier');
  const type = own(effect, 'type');
  const maxPoints = own(effect, 'maxPoints');
  if (maxPoints !== undefined && maxPoints !== null && !isWhole(maxPoints, 1, MAX_POINTS)) problems.add('effect.maxPoints', `must be a whole number from 1 to ${MAX_POINTS}`);
  const cap = typeof maxPoints === 'number' ? { maxPoints } : {};
  if (type === 'fixed') {
    problems.unknownKeys(effect, ['type', 'points', 'maxPoints'], 'effect');
    const points = own(effect, 'points');
    if (!isWhole(points, 1, MAX_POINTS)) return void problems.add('effect.points', `must be a whole number from 1 to ${MAX_POINTS}`);
    return { type, points, ...cap };
  }
  if (type === 'per_amount' || type === 'multiplier') {
    if (trigger !== 'purchase') return void problems.add('effect.type', `${type} needs a purchase: the trigger ${trigger} has no amount`);
    const field = type === 'per_amount' ? 'rate' : 'factor';
    problems.unknownKeys(effect, ['type', field, 'maxPoints'], 'effect');
    const number = type === 'per_amount' ? positiveRate(own(effect, 'rate'), MAX_RATE, 0, 'effect.rate', problems) : positiveRate(own(effect, 'factor'), MAX_FACTOR, 1, 'effect.factor', problems);
    if (number === undefined) return undefined;
    return type === 'per_amount' ? { type, rate: number, ...cap } : { type, factor: number, ...cap };
  }
  problems.add('effect.type', 'must be one of fixed, per_amount, multiplier');
  return undefined;
}

function checkLimits(limits: unknown, problems: Problems): Limits {
  if (limits === undefined || limits === null) return {};
  if (!isPlainObject(limits)) return problems.add('limits', 'must be an object: {member: [{period, count, points}], budget}'), {};
  problems.unknownKeys(limits, ['member', 'budget'], 'limits');
  const checked: Limits = {};
  const budget = own(limits, 'budget');
  if (budget !== undefined && budget !== null) {
    if (isWhole(budget, 1, MAX_POINTS)) checked.budget = budget;
    else problems.add('limits.budget', `must be a whole number of points from 1 to ${MAX_POINTS}`);
  }
  const member = own(limits, 'member');
  if (member === undefined || member === null) return checked;
  if (!Array.isArray(member) || member.length > PERIODS.length) return problems.add('limits.member', `must be a list of at most ${PERIODS.length} limits`), checked;
  const periods = new Set<string>();
  checked.member = [];
  member.forEach((limit, index) => {
    const path = `limits.member.${index}`;
    if (!isPlainObject(limit)) return problems.add(path, 'must be an object: {period, count, points}');
    problems.unknownKeys(limit, ['period', 'count', 'points'], path);
    const period = own(limit, 'period');
    const count = own(limit, 'count');
    const points = own(limit, 'points');
    if (typeof period !== 'string' || !(PERIODS as readonly string[]).includes(period)) problems.add(`${path}.period`, `must be one of ${PERIODS.join(', ')}`);
    else if (periods.has(period)) problems.add(`${path}.period`, `repeats the period ${period}`);
    else periods.add(period);
    const hasCount = count !== undefined && count !== null;
    const hasPoints = points !== undefined && points !== null;
    if (hasCount && !isWhole(count, 1, MAX_POINTS)) problems.add(`${path}.count`, `must be a whole number from 1 to ${MAX_POINTS}`);
    if (hasPoints && !isWhole(points, 1, MAX_POINTS)) problems.add(`${path}.points`, `must be a whole number from 1 to ${MAX_POINTS}`);
    if (!hasCount && !hasPoints) problems.add(path, 'must limit a count, points or both');
    checked.member!.push({ period: period as Period, ...(hasCount ? { count: count as number } : {}), ...(hasPoints ? { points: points as number } : {}) });
  });
  return checked;
}

/** What a client sends to create a rule or to change one (every field, after a change is merged onto the current version). */
export interface RuleDraft {
  name?: unknown;
  description?: unknown;
  trigger?: unknown;
  conditions?: unknown;
  effect?: unknown;
  limits?: unknown;
  priority?: unknown;
  stacks?: unknown;
  pendingDays?: unknown;
}

/** Whether a trigger is one a rule may have now: a fixed one, or a live custom event type's. */
function triggerProblem(trigger: unknown, context: RuleContext): string | undefined {
  if (typeof trigger !== 'string') return `must be one of ${FIXED_TRIGGERS.join(', ')}, or ${CUSTOM_EVENT}<type>`;
  const eventType = eventTypeOf(trigger);
  if (eventType !== undefined) return context.eventTypes.has(eventType) ? undefined : `names no declared custom event type (${eventType})`;
  return (FIXED_TRIGGERS as readonly string[]).includes(trigger) ? undefined : `must be one of ${FIXED_TRIGGERS.join(', ')}, or ${CUSTOM_EVENT}<type>`;
}

/** The definition a draft describes, or every problem of it at once. */
export function checkRuleDefinition(draft: RuleDraft, context: RuleContext): { definition: RuleDefinition } | { errors: FieldError[] } {
  const problems = new Problems();
  const { name, description, trigger, conditions, effect, limits, priority, stacks, pendingDays } = draft;
  if (typeof name !== 'string' || name.trim().length < 1 || name.length > MAX_TEXT) problems.add('name', `must be a text of 1 to ${MAX_TEXT} characters`);
  if (description !== undefined && description !== null && (typeof description !== 'string' || description.length > 2000)) problems.add('description', 'must be a text of at most 2000 characters');
  if (priority !== undefined && priority !== null && !isWhole(priority, 0, MAX_PRIORITY)) problems.add('priority', `must be a whole number from 0 to ${MAX_PRIORITY}`);
  if (stacks !== undefined && stacks !== null && typeof stacks !== 'boolean') problems.add('stacks', 'must be true or false');
  if (pendingDays !== undefined && pendingDays !== null && !isWhole(pendingDays, 0, 365)) problems.add('pendingDays', 'must be a whole number of days from 0 to 365');
  const wrongTrigger = triggerProblem(trigger, context);
  if (wrongTrigger) {
    problems.add('trigger', wrongTrigger);
    return { errors: problems.errors };
  }
  const known = trigger as Trigger;
  if (conditions !== undefined && conditions !== null) checkCondition(conditions, known, context, problems);
  const checkedEffect = checkEffect(effect, known, problems);
  const checkedLimits = checkLimits(limits, problems);
  if (problems.errors.length > 0 || !checkedEffect) return { errors: problems.errors };
  return {
    definition: {
      name: (name as string).trim(),
      description: (description as string | null | undefined) ?? null,
      trigger: known,
      conditions: (conditions as Condition | null | undefined) ?? null,
      effect: checkedEffect,
      limits: checkedLimits,
      priority: (priority as number | null | undefined) ?? 0,
      stacks: (stacks as boolean | null | undefined) ?? true,
      pendingDays: (pendingDays as number | null | undefined) ?? null,
    },
  };
}
