import { TestMember, unique } from './support/test-platform';
import { chance, int, pick, Random, seeded, some } from './support/seeded-random';
import { usePlatform } from './support/use-platform';

// Earning rules (issue 29) as properties, through v1 REST and GraphQL: for random rule sets and purchases,
// every purchase earns what the dry run (`POST /api/v1/loyalty/rules/simulate`) announced just before it,
// and 50 concurrent purchases never take a rule past its member limits or its budget. The runs are seeded:
// RULES_SEED chooses another seed (a failure names the one to replay), RULES_ROUNDS more rounds.
const SEED = Number(process.env.RULES_SEED ?? 29);
const ROUNDS = Number(process.env.RULES_ROUNDS ?? 5);
const RULES = '/api/v1/loyalty/rules';
const DAY_MS = 86_400_000;
/** The purchases happen on days before this one (fixed, so that a seed replays the same weekdays and periods). */
const ANCHOR = Date.UTC(2026, 5, 1);

const { platform, admin } = usePlatform({ staff: ['admin'] });
const api = (method: string, path: string, body?: unknown) => platform.api(method, path, { token: admin.token, body });

/** A test body with a stream of its own from the seed; a failure says how to replay it. */
const replayable = (salt: number, body: (random: Random) => Promise<void>) => async () => {
  try {
    await body(seeded(SEED ^ salt));
  } catch (error) {
    if (error instanceof Error) error.message = `[replay: RULES_SEED=${SEED} npx jest test/earning-rules-property.test.ts]\n${error.message}`;
    throw error;
  }
};

// ---------------------------------------------------------------------------------------------------
// Random worlds, purchases and rules (valid by the rule format).

interface World {
  stores: string[];
  categories: string[];
  /** UTC midnights: three close together (limits per day, week and month meet) and one far. */
  days: number[];
  /** Amounts the conditions and the purchases share, so that eq, in and the bounds of between are met. */
  amounts: number[];
}

function worldOf(random: Random): World {
  const near = int(random, 2, 20);
  const days = [near, near + int(random, 0, 2), near + int(random, 1, 6), int(random, 1, 60)].map((back) => ANCHOR - back * DAY_MS);
  const amounts = [...new Set(Array.from({ length: 6 }, () => int(random, 1, 30_000) / 100).concat([10, 100]))];
  return { stores: [unique('store'), unique('store'), unique('store')], categories: [unique('cat'), unique('cat'), unique('cat')], days, amounts };
}

interface Purchase {
  amount: number;
  store_id?: string;
  category?: string;
  occurred_at: string;
}

function purchaseIn(random: Random, world: World): Purchase {
  const amount = chance(random, 0.5) ? pick(random, world.amounts) : int(random, 1, 30_000) / 100;
  // Any time of the day, its first and last millisecond now and then.
  const at = pick(random, world.days) + (chance(random, 0.1) ? pick(random, [0, DAY_MS - 1]) : int(random, 0, DAY_MS - 1));
  return {
    amount,
    ...(chance(random, 0.85) ? { store_id: pick(random, world.stores) } : {}),
    ...(chance(random, 0.8) ? { category: pick(random, world.categories) } : {}),
    occurred_at: new Date(at).toISOString(),
  };
}

/** An ISO 8601 time near the world's days, now and then with an offset other than Z. */
function timeNear(random: Random, world: World): string {
  const at = pick(random, world.days) + pick(random, [0, int(random, 0, DAY_MS), DAY_MS, -DAY_MS]);
  if (chance(random, 0.7)) return new Date(at).toISOString();
  const offset = pick(random, [-300, 60, 120, 330]);
  const local = new Date(at + offset * 60_000).toISOString().slice(0, 19);
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  return `${local}${offset < 0 ? '-' : '+'}${hours}:${String(Math.abs(offset) % 60).padStart(2, '0')}`;
}

type Condition = { fact: string; op: string; value: unknown } | { all: Condition[] } | { any: Condition[] } | { not: Condition };

function comparison(random: Random, world: World): Condition {
  const fact = pick(random, ['amount', 'amount', 'store_id', 'category', 'weekday', 'occurred_at', 'first_in_category']);
  const numeric = (value: () => number): Condition => {
    const op = pick(random, ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'not_in']);
    if (op === 'between') return { fact, op, value: [value(), value()].sort((a, b) => a - b) };
    if (op === 'in' || op === 'not_in') return { fact, op, value: Array.from({ length: int(random, 1, 3) }, value) };
    return { fact, op, value: value() };
  };
  if (fact === 'amount') return numeric(() => (chance(random, 0.7) ? pick(random, world.amounts) : int(random, 0, 30_000) / 100));
  if (fact === 'weekday') return numeric(() => int(random, 1, 7));
  if (fact === 'store_id' || fact === 'category') {
    const values = fact === 'store_id' ? world.stores : world.categories;
    const op = pick(random, ['eq', 'ne', 'in', 'not_in']);
    return { fact, op, value: op === 'in' || op === 'not_in' ? some(random, values, int(random, 1, 2)) : pick(random, values) };
  }
  if (fact === 'occurred_at') {
    const op = pick(random, ['gte', 'lt', 'between']);
    if (op !== 'between') return { fact, op, value: timeNear(random, world) };
    for (;;) {
      const [from, to] = [timeNear(random, world), timeNear(random, world)].sort((a, b) => Date.parse(a) - Date.parse(b));
      if (Date.parse(from) < Date.parse(to)) return { fact, op, value: [from, to] };
    }
  }
  return { fact, op: 'eq', value: chance(random, 0.6) };
}

function conditionOf(random: Random, world: World, depth = 1): Condition {
  if (depth >= 3 || chance(random, 0.5)) return comparison(random, world);
  const group = pick(random, ['all', 'any', 'not']);
  if (group === 'not') return { not: conditionOf(random, world, depth + 1) };
  const children = Array.from({ length: int(random, 1, 3) }, () => conditionOf(random, world, depth + 1));
  return group === 'all' ? { all: children } : { any: children };
}

type Effect = { type: 'fixed'; points: number } | { type: 'per_amount'; rate: number } | { type: 'multiplier'; factor: number };
interface MemberLimit {
  period: 'day' | 'week' | 'month' | 'lifetime';
  count?: number;
  points?: number;
}
interface RuleBody {
  name: string;
  trigger: 'purchase';
  conditions: Condition | null;
  effect: Effect & { max_points?: number };
  limits: { member?: MemberLimit[]; budget?: number };
  priority: number;
  stacks: boolean;
}

function effectOf(random: Random): RuleBody['effect'] {
  const cap = chance(random, 0.25) ? { max_points: int(random, 1, 150) } : {};
  const type = pick(random, ['fixed', 'per_amount', 'multiplier'] as const);
  // Rates and factors of up to 4 decimals.
  if (type === 'fixed') return { type, points: int(random, 1, 80), ...cap };
  if (type === 'per_amount') return { type, rate: int(random, 1, 30_000) / 10_000, ...cap };
  return { type, factor: (10_000 + int(random, 1, 30_000)) / 10_000, ...cap };
}

function memberLimits(random: Random): MemberLimit[] {
  return some(random, ['day', 'week', 'month', 'lifetime'] as const, int(random, 1, 2)).map((period) => {
    const which = int(random, 0, 2);
    return { period, ...(which !== 1 ? { count: int(random, 1, 3) } : {}), ...(which !== 0 ? { points: int(random, 5, 200) } : {}) };
  });
}

function ruleOf(random: Random, world: World, name: string): RuleBody {
  return {
    name,
    trigger: 'purchase',
    conditions: chance(random, 0.1) ? null : conditionOf(random, world),
    effect: effectOf(random),
    limits: { ...(chance(random, 0.5) ? { member: memberLimits(random) } : {}), ...(chance(random, 0.3) ? { budget: int(random, 5, 300) } : {}) },
    priority: int(random, 0, 3),
    stacks: chance(random, 0.8),
  };
}

// ---------------------------------------------------------------------------------------------------
// Through the platform.

interface Rule {
  id: string;
  body: RuleBody;
}

async function createActive(body: RuleBody): Promise<Rule> {
  const created = await api('POST', RULES, body);
  if (created.status !== 201) throw new Error(`creating ${JSON.stringify(body)} answered ${created.status} ${JSON.stringify(created.body)}`);
  expect((await api('POST', `${RULES}/${created.body.data.id}/activate`)).status).toBe(200);
  return { id: created.body.data.id, body };
}

/** Each test's rules apply to its purchases alone: none is active before, all are deactivated after. */
async function withActive(bodies: RuleBody[], body: (rules: Rule[]) => Promise<void>): Promise<void> {
  expect((await api('GET', `${RULES}?status=active&limit=100`)).body.data).toEqual([]);
  const rules: Rule[] = [];
  try {
    for (const ruleBody of bodies) rules.push(await createActive(ruleBody));
    await body(rules);
  } finally {
    for (const rule of rules) expect((await api('POST', `${RULES}/${rule.id}/deactivate`)).status).toBe(200);
  }
}

interface Simulation {
  base_points: number;
  points: number;
  applied: Array<{ rule_id: string; version: number; points: number }>;
}

async function simulate(memberId: string, purchase: Purchase): Promise<Simulation> {
  const response = await api('POST', `${RULES}/simulate`, { trigger: 'purchase', customer_id: memberId, ...purchase });
  if (response.status !== 200) throw new Error(`simulate ${JSON.stringify(purchase)} answered ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

async function record(memberId: string, purchase: Purchase): Promise<{ id: string; points_earned: number }> {
  const response = await api('POST', '/api/v1/transactions', { customer_id: memberId, ...purchase });
  if (response.status !== 201) throw new Error(`purchase ${JSON.stringify(purchase)} answered ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

interface Application {
  ruleId: string;
  ruleVersion: number;
  memberId: string;
  sourceId: string;
  points: number;
  occurredAt: string;
}

/** The rule applications of one purchase or of one rule (at most 100: a rule applies at most once per purchase), through GraphQL. */
async function applications(filter: { sourceId: string } | { ruleId: string }): Promise<Application[]> {
  const response = await platform.graphql(
    `query ($sourceId: String, $ruleId: ID) { earningRuleApplications(sourceId: $sourceId, ruleId: $ruleId, limit: 100) { meta { total } data { ruleId ruleVersion memberId sourceId points occurredAt } } }`,
    filter,
    admin.token,
  );
  expect(response.body.errors).toBeUndefined();
  const { meta, data } = response.body.data.earningRuleApplications;
  expect(data).toHaveLength(meta.total);
  return data;
}

const balanceOf = async (memberId: string) => (await api('GET', `/api/v1/customers/${memberId}/points/balance`)).body.data.balance as number;
const budgetUsed = async (rule: Rule) => (await api('GET', `${RULES}/${rule.id}`)).body.data.budget_used as number;
const byRule = (items: Array<{ rule_id?: string; ruleId?: string }>) => [...items].sort((a, b) => ((a.rule_id ?? a.ruleId)! < (b.rule_id ?? b.ruleId)! ? -1 : 1));
const sum = (numbers: number[]) => numbers.reduce((total, number) => total + number, 0);

/** Where the period holding `at` starts: UTC days, ISO weeks from Monday, calendar months; lifetime is one period. */
function periodStart(period: MemberLimit['period'], at: number): number {
  const day = Math.floor(at / DAY_MS) * DAY_MS;
  const date = new Date(at);
  if (period === 'day') return day;
  if (period === 'week') return day - ((date.getUTCDay() + 6) % 7) * DAY_MS;
  if (period === 'month') return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  return 0;
}

describe(`earning rules as properties (RULES_SEED=${SEED})`, () => {
  it(
    'every purchase earns what its dry run announced just before, and every balance and budget is the sum of those announcements',
    replayable(0x5151, async (random) => {
      let applied = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const world = worldOf(random);
        const bodies = Array.from({ length: int(random, 3, 7) }, (_, index) => ruleOf(random, world, `property ${round}.${index}`));
        await withActive(bodies, async (rules) => {
          const members: TestMember[] = await Promise.all(Array.from({ length: int(random, 2, 3) }, () => platform.loginMember()));
          const announced = new Map<string, number>(members.map((member) => [member.id, 0]));
          const given = new Map<string, number>();
          for (let index = 0; index < 12; index++) {
            const member = pick(random, members);
            const purchase = purchaseIn(random, world);
            const simulated = await simulate(member.id, purchase);
            const recorded = await record(member.id, purchase);
            const written = (await applications({ sourceId: recorded.id })).map((row) => ({ rule_id: row.ruleId, version: row.ruleVersion, points: row.points }));
            const predicted = simulated.applied.map(({ rule_id, version, points }) => ({ rule_id, version, points }));
            // A failure shows the purchase and the rules, as sent.
            const context = { round, index, member: member.id, purchase, rules: rules.map((rule) => ({ id: rule.id, ...rule.body })) };
            expect({ context, points: recorded.points_earned, written: byRule(written) }).toEqual({ context, points: simulated.points, written: byRule(predicted) });
            announced.set(member.id, announced.get(member.id)! + simulated.points);
            for (const outcome of simulated.applied) given.set(outcome.rule_id, (given.get(outcome.rule_id) ?? 0) + outcome.points);
            applied += simulated.applied.length;
          }
          for (const member of members) expect({ member: member.id, balance: await balanceOf(member.id) }).toEqual({ member: member.id, balance: announced.get(member.id) });
          for (const rule of rules) expect({ rule: rule.id, budgetUsed: await budgetUsed(rule) }).toEqual({ rule: rule.id, budgetUsed: rule.body.limits.budget === undefined ? 0 : (given.get(rule.id) ?? 0) });
        });
      }
      // The rounds exercised the rules, not only the base points.
      expect(applied).toBeGreaterThan(0);
    }),
    30_000 + ROUNDS * 12_000,
  );

  it(
    'under 50 concurrent purchases no rule goes past a member limit (count and points, every period) or its budget, and balances are the purchases',
    replayable(0xc0c0, async (random) => {
      const world = worldOf(random);
      const [store] = world.stores;
      const [day] = world.days;
      const members = await Promise.all(Array.from({ length: 4 }, () => platform.loginMember()));
      // Two rules of the highest priority that hold for every purchase, so that their limits are surely met:
      // a count per member and day, and a budget smaller than 50 purchases ask.
      const perDay = int(random, 1, 3);
      const budgetPoints = int(random, 3, 20);
      const atStore = { fact: 'store_id', op: 'eq', value: store };
      const daily: RuleBody = { name: 'daily', trigger: 'purchase', conditions: atStore, effect: { type: 'fixed', points: int(random, 1, 50) }, limits: { member: [{ period: 'day', count: perDay }] }, priority: 1000, stacks: true };
      const budgeted: RuleBody = {
        name: 'budgeted',
        trigger: 'purchase',
        conditions: atStore,
        effect: { type: 'fixed', points: budgetPoints },
        limits: { budget: budgetPoints * int(random, 5, 40) + int(random, 0, budgetPoints - 1) },
        priority: 999,
        stacks: true,
      };
      const others = Array.from({ length: int(random, 3, 6) }, (_, index) => ({
        ...ruleOf(random, world, `race ${index}`),
        limits: { member: memberLimits(random), ...(chance(random, 0.4) ? { budget: int(random, 20, 400) } : {}) },
        priority: int(random, 0, 500),
      }));
      const purchases = Array.from({ length: 50 }, () => ({
        member: pick(random, members),
        purchase: { ...purchaseIn(random, world), store_id: store, occurred_at: new Date(day + int(random, 0, DAY_MS - 1)).toISOString() },
      }));

      await withActive([daily, budgeted, ...others], async (rules) => {
        const answers = await Promise.all(purchases.map(({ member, purchase }) => record(member.id, purchase)));
        const rows = (await Promise.all(rules.map((rule) => applications({ ruleId: rule.id })))).flat();
        // Every broken invariant is named at once.
        const problems: string[] = [];
        for (const rule of rules) {
          const mine = rows.filter((row) => row.ruleId === rule.id);
          for (const limit of rule.body.limits.member ?? []) {
            const groups = new Map<string, Application[]>();
            for (const row of mine) {
              const key = `${row.memberId} in the ${limit.period} from ${new Date(periodStart(limit.period, Date.parse(row.occurredAt))).toISOString()}`;
              groups.set(key, [...(groups.get(key) ?? []), row]);
            }
            for (const [key, group] of groups) {
              if (limit.count !== undefined && group.length > limit.count) problems.push(`rule ${rule.body.name}: ${group.length} applications to ${key} (count ${limit.count})`);
              const points = sum(group.map((row) => row.points));
              if (limit.points !== undefined && points > limit.points) problems.push(`rule ${rule.body.name}: ${points} points to ${key} (points ${limit.points})`);
            }
          }
          const given = sum(mine.map((row) => row.points));
          if (rule.body.limits.budget !== undefined && given > rule.body.limits.budget) problems.push(`rule ${rule.body.name}: ${given} points past its budget ${rule.body.limits.budget}`);
          const used = await budgetUsed(rule);
          if (used !== (rule.body.limits.budget === undefined ? 0 : given)) problems.push(`rule ${rule.body.name}: budget_used ${used}, applications ${given}`);
        }
        // The two anchors met their limits exactly: as many applications as the day count allows (or purchases), and the whole budget.
        for (const member of members) {
          const bought = purchases.filter((purchase) => purchase.member === member).length;
          const got = rows.filter((row) => row.ruleId === rules[0].id && row.memberId === member.id).length;
          if (got !== Math.min(perDay, bought)) problems.push(`rule daily: ${got} applications to ${member.id}, who bought ${bought} times (count ${perDay})`);
        }
        const spent = sum(rows.filter((row) => row.ruleId === rules[1].id).map((row) => row.points));
        if (spent !== budgeted.limits.budget) problems.push(`rule budgeted: ${spent} points given of its budget ${budgeted.limits.budget}, which 50 purchases ask more than`);
        // Each purchase earned its base points and its applications; each balance is its purchases' points.
        answers.forEach((answer, index) => {
          const expected = Math.floor(purchases[index].purchase.amount) + sum(rows.filter((row) => row.sourceId === answer.id).map((row) => row.points));
          if (answer.points_earned !== expected) problems.push(`purchase ${answer.id}: points_earned ${answer.points_earned}, base and applications ${expected}`);
        });
        for (const member of members) {
          const earned = sum(answers.filter((_, index) => purchases[index].member === member).map((answer) => answer.points_earned));
          const balance = await balanceOf(member.id);
          if (balance !== earned) problems.push(`member ${member.id}: balance ${balance}, its purchases earned ${earned}`);
        }
        expect(problems).toEqual([]);
      });
    }),
    60_000,
  );
});
