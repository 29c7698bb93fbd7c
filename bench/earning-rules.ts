import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { checkLedger, checkOutbox } from './ledger-check';
import { CONNECTIONS, drained, DURATION_SECONDS, loadWrite, printSides, settled, Target, WARM_UP_SECONDS, WriteRun } from './load';
import { insertMembers } from './v1';
import { int, pick, Random, seeded, some } from '../test/support/seeded-random';

/**
 * `BENCH_SCENARIOS=rules`: POST /api/v1/transactions with no active earning rule (the baseline) and then
 * the same purchases with BENCH_RULES (200) active ones, in one run. Issue 29's target: the rate with the
 * rules at >= 0.7x the baseline's, the p99 at <= 2x; the scenario fails otherwise.
 *
 * The rule set is shaped like a real retailer's program, in which a purchase meets about one rule: most
 * rules are targeted, a few are broad. Of the 200 (the same for a seed; `ruleSet` below):
 * - 4 broad purchase rules, each met by a good part of the purchases: a weekend multiplier everywhere
 *   (x1.5, capped), a birthday-month bonus, a big-basket bonus (amount >= 250, budgeted), 5% more on
 *   groceries;
 * - 155 targeted purchase rules, each met by a purchase in a hundred or fewer: a store's promotion above
 *   an amount (20), a category at a few stores (18), a tier in some categories at a couple of stores
 *   (12), a weekday in some categories at some stores (12), the weekend at a couple of stores in some
 *   categories (8), the birthday month in one category (8), a first purchase in a category at a few
 *   stores (12), an amount band at a store (14), an `any`/`not` mix (12), a store but not these
 *   categories above an amount (10), a date window open now at a store (10), a seasonal window closed
 *   before this week or opening after it (13: tested on every purchase, met by none), an exclusive store
 *   event of high priority that does not stack (6);
 * - 41 rules of other triggers, which a purchase does not evaluate at all (RuleEarning.prepare keeps the
 *   purchase trigger's rules only): `custom_event:<type>` of 3 event types this scenario declares (17),
 *   `booking.checked_in` (9), `customer.created` (5), `referral.completed` (10).
 * Effects are fixed, per amount and multipliers, some capped; nearly half of the purchase rules have
 * member limits (day, week, month, lifetime; counts and points) and about a dozen have budgets, so that a
 * met rule still costs the usage query and its budget's row lock; priorities are spread. The purchases
 * (`purchaseGenerator`) are the baseline's: 1 to 500 in 12 categories at 40 stores (5 of them busier),
 * in the last week, by customers 60% of whom have a tier and 80% a birth month; every purchase also asks
 * whether it is the member's first in its category, since rules test it.
 * The run prints how many rules applied per purchase: 1.20 and 1.22 in two runs of seed 29 (0.8 to 1.5
 * was the aim). That number, more than the evaluation, sets what the side with rules costs: each applied
 * rule writes a ledger entry of its own, whose `points.earned` the other domains consume (an earlier set,
 * with 3.5 applications a purchase, measured mostly those entries). None tests `segments`: a rule
 * that does makes every purchase ask the cluster through the gateway for the member's segments, a cost
 * of its own not measured here.
 */

const RULES = Number(process.env.BENCH_RULES ?? 200);
/** Customers the purchases of each side go to at random (each side its own). */
const CUSTOMERS = Number(process.env.BENCH_RULES_CUSTOMERS ?? 500);
/** The seed of the rule set and of the purchases (the same rules every run unless changed). */
const SEED = Number(process.env.BENCH_RULES_SEED ?? 29);
const STORES = Array.from({ length: 40 }, (_, index) => `rules-store-${String(index).padStart(2, '0')}`);
const CATEGORIES = ['grocery', 'apparel', 'shoes', 'electronics', 'beauty', 'home', 'toys', 'sports', 'books', 'garden', 'pets', 'jewelry'];
const TIERS = ['rules-tier-silver', 'rules-tier-gold', 'rules-tier-platinum'];
const DAY_MS = 86_400_000;

/** The custom event types the `custom_event:<type>` rules react to: declared before the rules, deleted after them. */
const EVENT_TYPES = [
  { name: 'bench_app_review', description: 'A review of the app', attributes: { stars: { type: 'number', required: true } } },
  { name: 'bench_survey', description: 'A survey answered', attributes: { channel: { type: 'string', required: true }, completed: { type: 'boolean', required: true } } },
  { name: 'bench_store_visit', description: 'A visit to a store without a purchase', attributes: { store_id: { type: 'string', required: true }, minutes: { type: 'number' } } },
] as const;

const storeIn = (stores: string[]) => (stores.length === 1 ? { fact: 'store_id', op: 'eq', value: stores[0] } : { fact: 'store_id', op: 'in', value: stores });
const categoryIn = (categories: string[]) => (categories.length === 1 ? { fact: 'category', op: 'eq', value: categories[0] } : { fact: 'category', op: 'in', value: categories });
const WEEKEND = { fact: 'weekday', op: 'in', value: [6, 7] };
/** A window of `occurred_at` from `from` to `to` days after now (negative: before). */
const windowOf = (now: number, from: number, to: number) => ({ fact: 'occurred_at', op: 'between', value: [new Date(now + from * DAY_MS).toISOString(), new Date(now + to * DAY_MS).toISOString()] });

/** The member limits a rule without limits of its own may carry. */
const MEMBER_LIMITS = [
  [{ period: 'day', count: 1 }],
  [{ period: 'week', count: 2 }],
  [{ period: 'lifetime', count: 1 }],
  [{ period: 'week', points: 200 }],
  [{ period: 'day', count: 2, points: 100 }],
  [{ period: 'month', count: 3 }],
  [
    { period: 'day', count: 1 },
    { period: 'lifetime', points: 1000 },
  ],
];

/** A rule's effect: fixed, per amount or a multiplier, with a cap now and then. */
function effectOf(random: Random, kind?: 'fixed' | 'per_amount' | 'multiplier'): Record<string, unknown> {
  const type = kind ?? pick(random, ['fixed', 'fixed', 'per_amount', 'multiplier'] as const);
  const cap = random() < 0.3 ? { max_points: int(random, 50, 500) } : {};
  if (type === 'fixed') return { type, points: int(random, 5, 100), ...cap };
  if (type === 'per_amount') return { type, rate: int(random, 5, 100) / 100, ...cap };
  return { type, factor: pick(random, [1.25, 1.5, 2, 2.5, 3]), ...cap };
}

/** What a kind of rule makes: its name, trigger (purchase unless said), conditions, effect and, when it has its own, limits, priority, stacking. */
interface RuleDraft {
  name: string;
  trigger?: string;
  conditions: Record<string, unknown> | null;
  effect: Record<string, unknown>;
  limits?: Record<string, unknown>;
  priority?: number;
  stacks?: boolean;
}
type Kind = (random: Random, now: number) => RuleDraft;

/** The broad purchase rules, one each, made first: a good part of the purchases meets one of them. */
const BROAD: Kind[] = [
  () => ({ name: 'Weekend x1.5 everywhere', conditions: WEEKEND, effect: { type: 'multiplier', factor: 1.5, max_points: 150 }, limits: { member: [{ period: 'week', count: 2 }] }, priority: 10 }),
  () => ({ name: 'Birthday month bonus', conditions: { fact: 'birthday_month', op: 'eq', value: true }, effect: { type: 'fixed', points: 100 }, limits: { member: [{ period: 'month', count: 1 }] }, priority: 10 }),
  () => ({ name: 'Big basket', conditions: { fact: 'amount', op: 'gte', value: 250 }, effect: { type: 'fixed', points: 50 }, limits: { member: [{ period: 'day', count: 1 }], budget: 200_000 }, priority: 10 }),
  () => ({ name: '5% more on groceries', conditions: categoryIn(['grocery']), effect: { type: 'per_amount', rate: 0.05, max_points: 20 }, priority: 5 }),
];

/** The targeted purchase rules by kind, and how many of each a set of 200 has. */
const TARGETED: Array<[number, Kind]> = [
  [20, (random) => ({ name: 'Store promotion', conditions: { all: [storeIn(some(random, STORES, 1)), { fact: 'amount', op: 'gte', value: int(random, 20, 50) * 5 }] }, effect: effectOf(random) })],
  [18, (random) => ({ name: 'Category at a few stores', conditions: { all: [storeIn(some(random, STORES, 3)), categoryIn(some(random, CATEGORIES, 1))] }, effect: effectOf(random, 'per_amount') })],
  [
    12,
    (random) => ({
      name: 'Tier in some categories at a couple of stores',
      conditions: { all: [{ fact: 'tier', op: 'eq', value: pick(random, TIERS) }, storeIn(some(random, STORES, 2)), categoryIn(some(random, CATEGORIES, 3))] },
      effect: effectOf(random, 'multiplier'),
    }),
  ],
  [
    12,
    (random) => ({
      name: 'Happy weekday',
      conditions: { all: [{ fact: 'weekday', op: 'eq', value: int(random, 1, 5) }, categoryIn(some(random, CATEGORIES, 2)), storeIn(some(random, STORES, 8))] },
      effect: effectOf(random),
    }),
  ],
  [8, (random) => ({ name: 'Weekend at a couple of stores', conditions: { all: [storeIn(some(random, STORES, 2)), WEEKEND, categoryIn(some(random, CATEGORIES, 3))] }, effect: effectOf(random, 'multiplier') })],
  [
    8,
    (random) => ({
      name: 'Birthday month in a category',
      conditions: { all: [{ fact: 'birthday_month', op: 'eq', value: true }, categoryIn(some(random, CATEGORIES, 1))] },
      effect: { type: 'fixed', points: int(random, 20, 100) },
      limits: { member: [{ period: 'lifetime', count: 1 }] },
    }),
  ],
  [
    12,
    (random) => ({
      name: 'First purchase in a category',
      conditions: { all: [{ fact: 'first_in_category', op: 'eq', value: true }, categoryIn(some(random, CATEGORIES, 1)), storeIn(some(random, STORES, 3))] },
      effect: { type: 'fixed', points: int(random, 20, 80) },
      limits: { member: [{ period: 'lifetime', count: 1 }] },
    }),
  ],
  [
    14,
    (random) => {
      const from = int(random, 2, 50) * 5;
      return { name: 'Amount band at a store', conditions: { all: [{ fact: 'amount', op: 'between', value: [from, from + int(random, 4, 16) * 5] }, storeIn(some(random, STORES, 1))] }, effect: effectOf(random) };
    },
  ],
  [
    12,
    (random) => ({
      name: 'Either store, some categories',
      conditions: {
        all: [
          { any: [storeIn(some(random, STORES, 1)), storeIn(some(random, STORES, 1))] },
          categoryIn(some(random, CATEGORIES, 2)),
          { fact: 'amount', op: 'between', value: [int(random, 1, 20), int(random, 100, 500)] },
        ],
      },
      effect: effectOf(random),
    }),
  ],
  [
    10,
    (random) => ({
      name: 'Store, not these categories',
      conditions: { all: [storeIn(some(random, STORES, 1)), { not: categoryIn(some(random, CATEGORIES, 6)) }, { fact: 'amount', op: 'gte', value: int(random, 4, 20) * 10 }] },
      effect: effectOf(random, 'per_amount'),
    }),
  ],
  [10, (random, now) => ({ name: 'Open window at a store', conditions: { all: [storeIn(some(random, STORES, 1)), windowOf(now, -int(random, 1, 3), int(random, 1, 20))] }, effect: effectOf(random) })],
  [
    13,
    (random, now) => {
      // Closed before the purchases' week or opening after it: evaluated on every purchase, met by none of them.
      const past = random() < 0.5;
      const start = past ? -int(random, 20, 120) : int(random, 2, 90);
      return {
        name: past ? 'Past season' : 'Coming season',
        conditions: { all: [categoryIn(some(random, CATEGORIES, int(random, 1, 4))), windowOf(now, start, start + int(random, 3, 14))] },
        effect: effectOf(random),
      };
    },
  ],
  [
    6,
    (random) => ({
      name: 'Exclusive store event',
      conditions: { all: [storeIn(some(random, STORES, 1)), { fact: 'amount', op: 'gte', value: int(random, 10, 30) * 10 }] },
      effect: { type: 'fixed', points: int(random, 100, 300) },
      limits: { member: [{ period: 'month', count: 1 }] },
      priority: int(random, 600, 900),
      stacks: false,
    }),
  ],
];

/** The rules of other triggers by kind, and how many of each a set of 200 has: no purchase evaluates them. */
const OTHER_TRIGGERS: Array<[number, Kind]> = [
  [
    6,
    (random) => ({
      name: 'App review',
      trigger: 'custom_event:bench_app_review',
      conditions: { fact: 'attributes.stars', op: 'gte', value: int(random, 3, 5) },
      effect: { type: 'fixed', points: int(random, 5, 50) },
      limits: { member: [pick(random, [{ period: 'month', count: 1 }, { period: 'lifetime', count: 1 }])] },
    }),
  ],
  [
    5,
    (random) => ({
      name: 'Survey answered',
      trigger: 'custom_event:bench_survey',
      conditions: { all: [{ fact: 'attributes.completed', op: 'eq', value: true }, { fact: 'attributes.channel', op: 'in', value: some(random, ['email', 'app', 'web', 'store'], 2) }] },
      effect: { type: 'fixed', points: int(random, 10, 40) },
      limits: { member: [{ period: 'week', count: 1 }], ...(random() < 0.4 ? { budget: int(random, 5_000, 50_000) } : {}) },
    }),
  ],
  [
    6,
    (random) => ({
      name: 'Store visit',
      trigger: 'custom_event:bench_store_visit',
      conditions: { all: [{ fact: 'attributes.store_id', op: 'in', value: some(random, STORES, 4) }, { fact: 'attributes.minutes', op: 'gte', value: int(random, 5, 30) }] },
      effect: { type: 'fixed', points: int(random, 5, 25) },
      limits: { member: [{ period: 'day', count: 1 }] },
    }),
  ],
  [
    9,
    (random, now) => ({
      name: 'Booking checked in',
      trigger: 'booking.checked_in',
      conditions: pick(random, [null, { fact: 'weekday', op: 'in', value: [1, 2, 3, 4] }, { fact: 'tier', op: 'eq', value: pick(random, TIERS) }, windowOf(now, -int(random, 1, 10), int(random, 5, 30))]),
      effect: { type: 'fixed', points: int(random, 10, 60) },
      limits: random() < 0.5 ? { member: [{ period: 'week', count: 2 }] } : {},
    }),
  ],
  [
    5,
    (random, now) => ({
      name: 'Welcome',
      trigger: 'customer.created',
      conditions: pick(random, [null, { fact: 'birthday_month', op: 'eq', value: true }, WEEKEND, windowOf(now, -int(random, 1, 10), int(random, 5, 60))]),
      effect: { type: 'fixed', points: int(random, 20, 200) },
      limits: { member: [{ period: 'lifetime', count: 1 }] },
    }),
  ],
  [
    10,
    (random) => {
      const role = pick(random, ['referrer', 'referred']);
      return {
        name: `Referral (${role})`,
        trigger: 'referral.completed',
        conditions: random() < 0.5 ? { fact: 'referral_role', op: 'eq', value: role } : { all: [{ fact: 'referral_role', op: 'eq', value: role }, { fact: 'tier', op: 'eq', value: pick(random, TIERS) }] },
        effect: { type: 'fixed', points: int(random, 50, 500) },
        limits: { member: [{ period: 'lifetime', count: role === 'referrer' ? int(random, 5, 20) : 1 }], ...(random() < 0.3 ? { budget: int(random, 10_000, 100_000) } : {}) },
      };
    },
  ],
];

/**
 * The kinds of the rules after the broad ones, in the order they are made: each kind spread evenly
 * over the list (largest share first at ties), so that a set of fewer than 200 keeps the mix.
 */
function kindOrder(): Array<{ kind: Kind; purchase: boolean }> {
  const slots: Array<{ at: number; kind: Kind; purchase: boolean }> = [];
  for (const [kinds, purchase] of [
    [TARGETED, true],
    [OTHER_TRIGGERS, false],
  ] as const) {
    for (const [count, kind] of kinds) for (let index = 0; index < count; index++) slots.push({ at: (index + 0.5) / count, kind, purchase });
  }
  return slots.sort((a, b) => a.at - b.at).map(({ kind, purchase }) => ({ kind, purchase }));
}

/** The rule set of a run: `count` bodies, the same for one seed and start time (see the comment at the top). */
function ruleSet(count: number, seed: number, now: number): Array<Record<string, unknown>> {
  const random = seeded(seed);
  const order = kindOrder();
  return Array.from({ length: count }, (_, index) => {
    const broad = index < BROAD.length;
    const slot = broad ? { kind: BROAD[index], purchase: true } : order[(index - BROAD.length) % order.length];
    const draft = slot.kind(random, now);
    let limits = draft.limits ?? {};
    if (!broad && slot.purchase && draft.limits === undefined) {
      // A third of the targeted purchase rules without limits of their own get member limits; one in about fifteen a budget.
      if (random() < 0.33) limits = { member: pick(random, MEMBER_LIMITS) };
      if (random() < 0.07) limits = { ...limits, budget: int(random, 2_000, 20_000) };
    }
    return {
      name: `${draft.name} ${index}`,
      trigger: draft.trigger ?? 'purchase',
      conditions: draft.conditions,
      effect: draft.effect,
      limits,
      priority: draft.priority ?? (random() < 0.2 ? int(random, 50, 500) : int(random, 0, 20)),
      stacks: draft.stacks ?? true,
    };
  });
}

/** A purchase of a random customer at a random store (a few busier than the others) in the last week: 70% up to 100, 25% up to 300, 5% up to 500. */
function purchaseGenerator(seed: number, now: number): (customers: string[]) => Record<string, unknown> {
  const random = seeded(seed);
  return (customers) => {
    const band = random();
    const [low, high] = band < 0.7 ? [100, 10_000] : band < 0.95 ? [10_000, 30_000] : [30_000, 50_000];
    const store = random() < 0.3 ? STORES[int(random, 0, 4)] : pick(random, STORES);
    return {
      customer_id: pick(random, customers),
      amount: int(random, low, high) / 100,
      store_id: store,
      category: pick(random, CATEGORIES),
      external_id: randomUUID(),
      occurred_at: new Date(now - Math.floor(random() * 7 * DAY_MS)).toISOString(),
    };
  };
}

async function call(target: Target, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${target.restUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: response.status === 204 ? null : await response.json() };
}

/** Declares the event types of the `custom_event:<type>` rules (one declared before, by an earlier run on this database, is kept). */
async function declareEventTypes(target: Target): Promise<void> {
  for (const type of EVENT_TYPES) {
    const declared = await call(target, 'POST', '/api/v1/events/types', type);
    if (declared.status !== 201 && declared.status !== 409) throw new Error(`declaring the event type ${type.name} answered ${declared.status} ${JSON.stringify(declared.body).slice(0, 500)}`);
  }
}

/** Creates and activates the rules through the v1 API as the admin, a few at a time; their ids. */
async function createRules(target: Target, bodies: Array<Record<string, unknown>>): Promise<string[]> {
  const ids: string[] = new Array(bodies.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < bodies.length; index = next++) {
      const created = await call(target, 'POST', '/api/v1/loyalty/rules', bodies[index]);
      if (created.status !== 201) throw new Error(`creating rule ${index} answered ${created.status} ${JSON.stringify(created.body).slice(0, 500)}`);
      const activated = await call(target, 'POST', `/api/v1/loyalty/rules/${created.body.data.id}/activate`);
      if (activated.status !== 200) throw new Error(`activating rule ${index} answered ${activated.status} ${JSON.stringify(activated.body).slice(0, 500)}`);
      ids[index] = created.body.data.id;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return ids;
}

/** Customers for one side: in auth (as v1 would have made them) and, for most, point's projection of their tier and birth month (as the events would have made it). */
async function customersFor(pool: Pool, random: Random): Promise<string[]> {
  const customers = await insertMembers(pool, CUSTOMERS);
  const profiles = customers.map((id) => ({ member_id: id, tier_id: random() < 0.4 ? null : pick(random, TIERS), birth_month: random() < 0.2 ? null : int(random, 1, 12) }));
  await pool.query(
    `insert into point.member_profile (member_id, tier_id, tier_at, birth_month, profile_at)
     select member_id, tier_id, now(), birth_month, now() from jsonb_to_recordset($1::jsonb) as p(member_id uuid, tier_id text, birth_month smallint)`,
    [JSON.stringify(profiles)],
  );
  return customers;
}

/** The budgets of the rules: never past, and `budget_used` what their applications gave (compared by PostgreSQL, in numerics). */
async function budgetProblems(pool: Pool, ruleIds: string[]): Promise<string[]> {
  const { rows } = await pool.query(
    `select r.id::text as id, r.limits->>'budget' as budget, r.budget_used::text as used, coalesce(sum(a.points), 0)::text as given
       from point.earning_rule r left join point.rule_application a on a.rule_id = r.id
      where r.id = any($1::uuid[]) and r.limits ? 'budget'
      group by r.id having coalesce(sum(a.points), 0) > (r.limits->>'budget')::numeric or coalesce(sum(a.points), 0) <> r.budget_used`,
    [ruleIds],
  );
  return rows.map((row) => `rule ${row.id}: budget ${row.budget}, budget_used ${row.used}, applications ${row.given}`);
}

const activeRules = async (pool: Pool) => (await pool.query(`select count(*)::int as n from point.earning_rule where is_active and deleted_at is null`)).rows[0].n as number;

/** What one side recorded: its run, its purchases, the rule applications they earned, what its checks found. */
interface SideRun {
  run: WriteRun;
  purchases: number;
  applications: number;
  problems: string[];
}

/**
 * One side, on fresh customers (the same profiles and the same purchases on each side: both seeded by
 * SEED), once the platform has consumed what ran before: a warm-up and the measured run. Then the checks:
 * as many purchases as answers 201 (at most the requests dropped in flight more), each purchase's points
 * its base entry's and its rule applications' together, the ledger and outbox checks (balances = ledger
 * = open lots, one `points.*` event per entry).
 */
async function purchaseSide(target: Target, pool: Pool, name: string, now: number): Promise<SideRun> {
  const customers = await customersFor(pool, seeded(SEED + 1));
  const purchase = purchaseGenerator(SEED + 2, now);
  const path = '/api/v1/transactions';
  const next = () => ({ path, body: JSON.stringify(purchase(customers)), headers: { 'idempotency-key': randomUUID() } });
  if (!(await drained(target.databaseUrl))) console.log(`${name}: measured with the event consumers' backlog of the work before it not drained`);
  const warmUp = await loadWrite(target.restUrl, target.token, next, (status) => status === 201, WARM_UP_SECONDS);
  const run = await loadWrite(target.restUrl, target.token, next, (status) => status === 201, DURATION_SECONDS);
  const purchases = await settled(async () => (await pool.query(`select count(*)::int as n from point.purchase where member_id = any($1::uuid[])`, [customers])).rows[0].n);
  const answered = (warmUp.statuses.get(201) ?? 0) + (run.statuses.get(201) ?? 0);
  const { rows } = await pool.query(
    `select (select count(*)::int from point.rule_application where member_id = any($1::uuid[])) as applications,
            (select count(*)::int from point.purchase p join point.point_transaction t on t.id = p.earn_entry_id
                    left join (select source_id, sum(points) as points from point.rule_application
                                where source_type = 'purchase' and member_id = any($1::uuid[]) group by source_id) a on a.source_id = p.id::text
              where p.member_id = any($1::uuid[]) and p.points_earned <> t.amount + coalesce(a.points, 0)) as wrong`,
    [customers],
  );
  const ledger = await checkLedger(pool, customers);
  const problems = [...ledger.problems, ...(await checkOutbox(pool, customers))];
  if (purchases < answered || purchases > answered + 2 * CONNECTIONS) problems.push(`${purchases} purchases for ${answered} answers 201 (+ at most ${2 * CONNECTIONS} dropped in flight)`);
  if (rows[0].wrong > 0) problems.push(`${rows[0].wrong} purchases whose points are not their base entry's and their rules' together`);
  for (const load of [warmUp, run]) problems.push(...load.unexpected.map((answer) => `unexpected answer ${answer}`));
  if (warmUp.result.errors + run.result.errors > 0) problems.push(`${warmUp.result.errors + run.result.errors} connection errors or timeouts`);
  const { applications } = rows[0];
  console.log(`${name}: ${answered} answers 201 (warm-up included); ${purchases} purchases, ${applications} rule applications (${(applications / Math.max(1, purchases)).toFixed(2)} a purchase), ${ledger.transactions} ledger entries`);
  return { run, purchases, applications, problems: problems.map((problem) => `${name}: ${problem}`) };
}

/**
 * The scenario: the baseline side with no active rule; RULES rules created and activated through the v1
 * API; the side with them; the rules deleted (what runs after records its purchases without them). Prints
 * both sides and the ratios of the second to the first; false when a check fails or the target is missed.
 */
export async function earningRulesScenario(target: Target, pool: Pool): Promise<boolean> {
  console.log('');
  const now = Date.now();
  const problems: string[] = [];
  const before = await activeRules(pool);
  if (before > 0) problems.push(`the baseline measured with ${before} active rules made before this scenario`);
  const baseline = await purchaseSide(target, pool, 'no active rule (baseline)', now);
  const started = Date.now();
  await declareEventTypes(target);
  const rules = ruleSet(RULES, SEED, now);
  const ruleIds = await createRules(target, rules);
  const ofPurchases = rules.filter((rule) => rule.trigger === 'purchase').length;
  console.log(`${RULES} rules (${ofPurchases} of purchases) created and activated through /api/v1/loyalty/rules in ${((Date.now() - started) / 1000).toFixed(1)}s (seed ${SEED})`);
  let withRules: SideRun;
  try {
    withRules = await purchaseSide(target, pool, `${RULES} active rules`, now);
    problems.push(...(await budgetProblems(pool, ruleIds)));
  } finally {
    for (const id of ruleIds) await call(target, 'DELETE', `/api/v1/loyalty/rules/${id}`);
    for (const type of EVENT_TYPES) {
      const deleted = await call(target, 'DELETE', `/api/v1/events/types/${type.name}`);
      if (deleted.status !== 204) console.log(`deleting the event type ${type.name} answered ${deleted.status} ${JSON.stringify(deleted.body).slice(0, 300)}`);
    }
  }
  problems.push(...baseline.problems, ...withRules.problems);
  if (baseline.applications > 0) problems.push(`the baseline: ${baseline.applications} rule applications`);
  if (withRules.applications === 0) problems.push(`${RULES} active rules: no rule applied`);

  printSides(`POST /api/v1/transactions, the same purchases of 1 to 500 by ${CUSTOMERS} customers at ${STORES.length} stores in ${CATEGORIES.length} categories`, [
    ['no active rule (baseline)', baseline.run.result],
    [`${RULES} active rules`, withRules.run.result],
  ]);
  const rate = withRules.run.result.requests.average / Math.max(1, baseline.run.result.requests.average);
  const p99 = withRules.run.result.latency.p99 / Math.max(1, baseline.run.result.latency.p99);
  const met = rate >= 0.7 && p99 <= 2;
  console.log(`target (issue 29): rate >= 0.7x and p99 <= 2x of the baseline: ${met ? 'met' : 'MISSED'} (${rate.toFixed(3)}, ${p99.toFixed(2)}x)`);
  for (const problem of problems) console.log(`  ${problem}`);
  console.log(problems.length === 0 && met ? 'earning rules: PASS (purchases, points = base + rules, budgets, ledger and target)' : `earning rules: FAIL (${problems.length} problems${met ? '' : ', target missed'})`);
  return problems.length === 0 && met;
}
