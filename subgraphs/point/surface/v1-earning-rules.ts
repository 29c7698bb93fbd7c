import { arrayOf, boolean, id, integer, nullable, number, object, oneOf, record, string, timestamp } from '../../../core/rest/json-schema';
import { wholePoints } from '../../../core/rest/case';
import { validationError } from '../../../core/errors';
import { CUSTOM_EVENT, FACTS, FIXED_TRIGGERS, PERIODS } from '../services/earning-rules/rule-definition';
import { EVENT_NAME } from '../services/earning-rules/event-attributes';

/** An earning rule as the point subgraph answers it. */
export interface EarningRuleRecord {
  id: string;
  isActive: boolean;
  budgetUsed: number;
  [field: string]: unknown;
}

const STATUSES: Record<string, boolean> = { active: true, inactive: false };

/** The earningRules query's variables from a v1 list request: `status` (active or inactive), `trigger`, `page`, `limit`. */
export function earningRuleListVariables(query: Record<string, unknown>): Record<string, unknown> {
  if (query.status !== undefined && (typeof query.status !== 'string' || !Object.hasOwn(STATUSES, query.status))) {
    throw validationError([{ field: 'status', message: 'status is active or inactive' }]);
  }
  return { page: query.page, limit: query.limit, trigger: query.trigger, isActive: query.status === undefined ? undefined : STATUSES[query.status as string] };
}

/** A rule outcome of a dry run as the subgraph answers it. */
interface OutcomeRecord {
  ruleId: string;
  version: number;
  name: string;
  points: number;
  reason?: string | null;
}

/** A rule as v1 answers it: `status` active or inactive, whole points. */
export function earningRuleOf({ isActive, budgetUsed, ...rule }: EarningRuleRecord): Record<string, unknown> {
  return { ...rule, status: isActive ? 'active' : 'inactive', budgetUsed: wholePoints(budgetUsed) };
}

const outcomeOf = ({ reason, ...outcome }: OutcomeRecord) => ({ ...outcome, points: wholePoints(outcome.points), ...(reason ? { reason } : {}) });

/** A dry run as v1 answers it, in whole points. */
export const simulationOf = (simulation: { basePoints: number; points: number; applied: OutcomeRecord[]; skipped: OutcomeRecord[] }) => ({
  basePoints: wholePoints(simulation.basePoints),
  points: wholePoints(simulation.points),
  applied: simulation.applied.map(outcomeOf),
  skipped: simulation.skipped.map(outcomeOf),
});

/** A rule's trigger: a fixed one, or `custom_event:<a declared type>`. */
export const TRIGGER = { anyOf: [oneOf(...FIXED_TRIGGERS), string({ pattern: `^${CUSTOM_EVENT}${EVENT_NAME.source.slice(1, -1)}$`, description: 'custom_event:<type>, a declared custom event type' })] };

const CONDITION = object({}, [], {
  description: `{fact, op, value}, {all: [...]}, {any: [...]} or {not: {...}}. Facts: ${Object.keys(FACTS).join(', ')}, attributes.<name> (custom events). See docs/decisions.md (the rule format).`,
  additionalProperties: true,
});
const MAX_POINTS_FIELD = { max_points: nullable(integer({ minimum: 1, description: 'at most this many points' })) };
const EFFECT = {
  anyOf: [
    object({ type: oneOf('fixed'), points: integer({ minimum: 1 }), ...MAX_POINTS_FIELD }, ['type', 'points'], { description: 'fixed points' }),
    object({ type: oneOf('per_amount'), rate: number({ exclusiveMinimum: 0, maximum: 1000, description: 'points per currency unit, at most 4 decimals' }), ...MAX_POINTS_FIELD }, ['type', 'rate'], {
      description: 'trunc(amount × rate)',
    }),
    object({ type: oneOf('multiplier'), factor: number({ exclusiveMinimum: 1, maximum: 100, description: 'at most 4 decimals' }), ...MAX_POINTS_FIELD }, ['type', 'factor'], {
      description: 'the base earn this many times in all: the rule adds trunc(base × (factor − 1))',
    }),
  ],
};
const MEMBER_LIMIT = object({ period: oneOf(...PERIODS), count: nullable(integer({ minimum: 1 })), points: nullable(integer({ minimum: 1 })) }, ['period'], {
  anyOf: [{ required: ['count'] }, { required: ['points'] }],
});
const LIMITS = object({
  member: nullable(
    arrayOf(MEMBER_LIMIT, {
      maxItems: PERIODS.length,
      description: 'per member and period (UTC days, ISO weeks, calendar months, lifetime), by when the source happened; a count, points or both',
    }),
  ),
  budget: nullable(integer({ minimum: 1, description: 'points the rule may give in all' })),
});

/** The body of a rule's creation; a change takes the same fields, each optional. */
export const EARNING_RULE_BODY = object(
  {
    name: string({ minLength: 1, maxLength: 256 }),
    description: nullable(string({ maxLength: 2000 })),
    trigger: TRIGGER,
    conditions: nullable(CONDITION),
    effect: EFFECT,
    limits: nullable(LIMITS),
    priority: nullable(integer({ minimum: 0, maximum: 1000, description: 'higher first; 0 unless given (or null)' })),
    stacks: nullable(boolean({ description: 'false: once this rule applies, no rule after it does; true unless given (or null)' })),
    pending_days: nullable(integer({ minimum: 0, maximum: 365, description: "days its points are held before they can be spent; null: the program's default for purchases, at once otherwise" })),
  },
  ['name', 'trigger', 'effect'],
);

export const EARNING_RULE = record({
  id: id(),
  name: string(),
  description: nullable(string()),
  trigger: TRIGGER,
  conditions: nullable(CONDITION),
  effect: EFFECT,
  limits: LIMITS,
  priority: integer(),
  stacks: boolean(),
  pending_days: nullable(integer()),
  status: oneOf('active', 'inactive'),
  version: integer({ minimum: 1, description: 'every change of the definition adds one' }),
  budget_used: integer({ description: 'points the rule has given' }),
  created_at: timestamp(),
  updated_at: timestamp(),
});

const OUTCOME = object(
  { rule_id: id(), version: integer(), name: string(), points: integer(), reason: oneOf('limit', 'budget', 'not_stacking', 'zero') },
  ['rule_id', 'version', 'name', 'points'],
);

export const EARNING_SIMULATION = record({
  base_points: integer({ description: "by the store's shop rule" }),
  points: integer({ description: 'base and rules together' }),
  applied: arrayOf(OUTCOME),
  skipped: arrayOf(OUTCOME, { description: 'rules whose conditions held that earn nothing, with why' }),
});
