import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { CODE_ALPHABET } from '../subgraphs/reward/services/reward-code-issuer';

/** How much the `large` scenario seeds: members, ledger rows; a tenth of the rows belong to one heavy member. */
export interface LargeScale {
  members: number;
  transactions: number;
}

/** What a seeded database holds, as the reads expect it. */
export interface SeededLarge extends LargeScale {
  /** The member with a tenth of the ledger (member number 1). */
  heavyMemberId: string;
  heavyTransactions: number;
  heavyBalance: number;
  /** Seconds the seeding took, when it ran (also for a reused database: as recorded then). */
  seconds: number;
  seededAt: string;
  /** False when the database had been seeded by an earlier run. */
  seededNow: boolean;
}

const EARN = 10;
const SPEND = 5;
/** Tiers by level; a member's tier follows its number: 60% level 1, 25% level 2, 10% level 3, 5% level 4. */
const TIERS = [
  { level: 1, name: 'Bench Bronze', hit: 0 },
  { level: 2, name: 'Bench Silver', hit: 1000 },
  { level: 3, name: 'Bench Gold', hit: 5000 },
  { level: 4, name: 'Bench Platinum', hit: 20000 },
];
const FIRST_NAMES = [
  'Somchai', 'Somsak', 'Anan', 'Kittisak', 'Niran', 'Prasert', 'Surachai', 'Wichai', 'Chaiwat', 'Thanakorn',
  'Malee', 'Siriporn', 'Kanya', 'Suda', 'Nok', 'Ploy', 'Ratana', 'Wanida', 'Pensri', 'Arunee',
  'Wei', 'Fang', 'Jing', 'Lei', 'Ming', 'Xiu', 'Yan', 'Hui', 'Jun', 'Lan',
  'James', 'Mary', 'John', 'Linda', 'David', 'Sarah', 'Michael', 'Emma', 'Daniel', 'Olivia',
];
const LAST_NAMES = [
  'Saetang', 'Srisuk', 'Wongsa', 'Chaiyaporn', 'Boonmee', 'Rattanakorn', 'Sukprasert', 'Kaewmanee', 'Thongdee', 'Phromma',
  'Chen', 'Wang', 'Li', 'Zhang', 'Liu', 'Yang', 'Huang', 'Zhao', 'Wu', 'Zhou',
  'Smith', 'Johnson', 'Brown', 'Taylor', 'Wilson', 'Davies', 'Evans', 'Thomas', 'Roberts', 'Walker',
  'Nguyen', 'Tran', 'Le', 'Pham', 'Hoang', 'Kim', 'Park', 'Lee', 'Tanaka', 'Sato',
];

/** Member number k's phone number: 08 and 8 digits, all different (7919 is prime to 10^8), as phoneSql makes it. */
const phoneOf = (k: number) => `08${String((k * 7919 + 12345) % 100_000_000).padStart(8, '0')}`;
const phoneSql = (k: string) => `'08' || lpad(((${k}::bigint * 7919 + 12345) % 100000000)::text, 8, '0')`;
/** A search term matching one member at any scale: member 10's phone number. */
export const RARE_SEARCH = phoneOf(10);
/** A search term matching one member in forty (a first name), case-insensitively. */
export const COMMON_SEARCH = FIRST_NAMES[0].toLowerCase();

/** SQL of a version 4 UUID derived from `text` (an md5 with the version and variant set): the same on every run. */
const uuidSql = (text: string) => `overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`;
/**
 * SQL of a version 7 UUID at the moment `at` (a timestamptz) whose other bits derive from `text`: the
 * same on every run, and ordered by time as the platform makes ledger entries' and lots' ids
 * (`timeOrderedId` in core/ids.ts), so the seeded keys sit in their indexes as a ledger written by the
 * platform would have put them.
 */
const timeOrderedIdSql = (at: string, text: string) =>
  `(lpad(to_hex((extract(epoch from ${at}) * 1000)::bigint), 12, '0') || '7' || substr(md5(${text}), 1, 3) || '8' || substr(md5(${text}), 4, 15))::uuid`;
const entryIdSql = (i: string) => timeOrderedIdSql('at', `'bench-tx:' || ${i}`);
const memberIdSql = (k: string) => uuidSql(`'bench-member:' || ${k}`);
/** Member number k's id, as memberIdSql makes it. */
export function memberId(k: number): string {
  const hex = createHash('md5').update(`bench-member:${k}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/**
 * The ledger in commit order: row i (1..transactions) of member k is that member's j-th entry; every
 * tenth row belongs to the heavy member 1, the others go round members 2..M. Entries alternate EARN 10
 * (odd j) and SPEND 5 (even j); n is the member's number of entries.
 */
function ledgerRowsSql(scale: LargeScale): string {
  const others = scale.members - 1;
  return `
    select i, k, j, ${entriesSql(scale, 'k')} as n,
           $1::timestamptz - interval '2 years' + i * (interval '2 years' / ${scale.transactions}) as at
      from (select i,
                   case when i % 10 = 0 then 1 else (i - i / 10 - 1) % ${others} + 2 end as k,
                   case when i % 10 = 0 then i / 10 else (i - i / 10 - 1) / ${others} + 1 end as j
              from generate_series($2::bigint, $3::bigint) as i) numbered`;
}

/** SQL of the number of ledger entries of member `k`. */
function entriesSql(scale: LargeScale, k: string): string {
  const others = scale.members - 1;
  const rest = scale.transactions - Math.floor(scale.transactions / 10);
  return `case when ${k} = 1 then ${Math.floor(scale.transactions / 10)} else ${Math.floor(rest / others)} + case when ${k} - 2 < ${rest % others} then 1 else 0 end end`;
}

const CHUNK = 1_000_000;

/**
 * Seeds with set-based SQL, in one transaction, a database carrying the auth, point and cluster schemas:
 * `members` members (names from common first and last names, phone numbers 08 + 8 digits, all different), the ledger of
 * `transactions` rows with a lot per EARN consumed oldest first and balances equal to the ledger sums
 * (entry counts included), four tiers, each member's tier and one history item; then vacuums and
 * analyzes. A database already seeded (marked in public.bench_seed) is reused as it is.
 */
export async function seedLarge(databaseUrl: string, scale: LargeScale, log: (line: string) => void = () => {}): Promise<SeededLarge> {
  if (scale.members < 20 || scale.transactions < 10 * scale.members) throw new Error('the large scenario needs at least 20 members and 10 ledger rows per member');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`create table if not exists public.bench_seed (
      members bigint not null, transactions bigint not null, seconds numeric not null, seeded_at timestamptz not null)`);
    const { rows: [marker] } = await client.query('select members::int, transactions::int, seconds::float8, seeded_at from public.bench_seed');
    if (marker) {
      if (marker.members !== scale.members || marker.transactions !== scale.transactions) {
        throw new Error(`this database holds a seed of ${marker.members} members and ${marker.transactions} rows, not ${scale.members} and ${scale.transactions}: use another DATA_DIR`);
      }
      if (!(await seededTimeOrdered(client))) throw new Error('this database was seeded with random (version 4) ledger ids, not time-ordered ones as the platform makes them: use another DATA_DIR');
      return described(scale, marker.seconds, marker.seeded_at, false);
    }
    const started = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
    const { rows: [{ now }] } = await client.query('select now()');
    await client.query('begin');
    await client.query(`set local synchronous_commit = off; set local work_mem = '256MB'; set local maintenance_work_mem = '1GB'`);
    const restore = await withoutIndexes(client, SEEDED_TABLES);
    await seedMembers(client, scale, now);
    log(`  members seeded (${elapsed().toFixed(0)}s)`);
    await seedTiers(client, scale, now);
    log(`  tiers, tier projections and history seeded (${elapsed().toFixed(0)}s)`);
    for (let from = 1; from <= scale.transactions; from += CHUNK) {
      const to = Math.min(scale.transactions, from + CHUNK - 1);
      await client.query(
        `insert into point.point_transaction (id, member_id, action_type, amount, purchase_amount, source_by, balance_after, created_at, updated_at)
         select ${entryIdSql('i')}, ${memberIdSql('k')},
                case when j % 2 = 1 then 'EARN' else 'SPEND' end, case when j % 2 = 1 then ${EARN} else ${SPEND} end, 0, 'Manual',
                ${EARN} * ((j + 1) / 2) - ${SPEND} * (j / 2), at, at
           from (${ledgerRowsSql(scale)}) rows`,
        [now, from, to],
      );
      await client.query(
        `insert into point.point_lot (id, member_id, transaction_id, amount, remaining, earned_at, expires_at)
         select ${timeOrderedIdSql('at', `'bench-lot:' || i`)}, ${memberIdSql('k')}, ${entryIdSql('i')}, ${EARN},
                greatest(0, least(${EARN}, ${EARN} * ((j + 1) / 2) - ${SPEND} * (n / 2))), at, null
           from (${ledgerRowsSql(scale)}) rows where j % 2 = 1`,
        [now, from, to],
      );
      log(`  ledger rows ${from}..${to} and their lots seeded (${elapsed().toFixed(0)}s)`);
    }
    await client.query(
      `insert into point.point_balance (member_id, point_amount, purchase_amount, entry_count, updated_at)
       select ${memberIdSql('k')}, ${EARN} * ((n + 1) / 2) - ${SPEND} * (n / 2), 0, n, $1
         from (select k, ${entriesSql(scale, 'k')} as n from generate_series(1, $2::int) as k) members`,
      [now, scale.members],
    );
    log(`  balances seeded (${elapsed().toFixed(0)}s)`);
    await restore();
    log(`  indexes and constraints rebuilt (${elapsed().toFixed(0)}s)`);
    await client.query('insert into public.bench_seed (members, transactions, seconds, seeded_at) values ($1, $2, $3, now())', [
      scale.members,
      scale.transactions,
      elapsed(),
    ]);
    await client.query('commit');
    await client.query(
      'vacuum (analyze) auth.member, auth.tally, point.point_transaction, point.point_lot, point.point_balance, point.tally, cluster.tier, cluster.tier_projection, cluster.tier_history, cluster.tally',
    );
    log(`  vacuumed and analyzed (${elapsed().toFixed(0)}s)`);
    const seconds = elapsed();
    await client.query('update public.bench_seed set seconds = $1', [seconds]);
    return described(scale, seconds, new Date(), true);
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

/** Whether the seeded ledger's ids are time-ordered (version 7), as this seed makes them; earlier seeds made version 4 ids. */
async function seededTimeOrdered(client: Client): Promise<boolean> {
  const { rows } = await client.query(`select substr(id::text, 15, 1) = '7' as ordered from point.point_transaction where action_type = 'EARN' and source_by = 'Manual' order by created_at limit 1`);
  return rows.length === 0 || rows[0].ordered;
}

/** The tables the seed fills, whose indexes and constraints are rebuilt after the load rather than kept during it. */
const SEEDED_TABLES = ['auth.member', 'point.point_transaction', 'point.point_lot', 'point.point_balance', 'cluster.tier_projection', 'cluster.tier_history'];

/**
 * Drops the tables' indexes, primary keys, unique and foreign keys (those pointing at them too), and
 * returns what puts them back as they were (their own definitions): building an index once by sorting
 * is much faster than growing it by millions of random inserts, and a foreign key is checked by one join.
 */
async function withoutIndexes(client: Client, tables: string[]): Promise<() => Promise<void>> {
  const { rows: constraints } = await client.query(
    `select conrelid::regclass::text as tab, conname, pg_get_constraintdef(oid) as definition, contype
       from pg_constraint
      where contype in ('p', 'u', 'f') and (conrelid = any($1::regclass[]) or (contype = 'f' and confrelid = any($1::regclass[])))
      order by contype = 'f' desc`,
    [tables],
  );
  const { rows: indexes } = await client.query(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i
      where i.indrelid = any($1::regclass[]) and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [tables],
  );
  for (const constraint of constraints) await client.query(`alter table ${constraint.tab} drop constraint ${constraint.conname}`);
  for (const index of indexes) await client.query(`drop index ${index.name}`);
  return async () => {
    for (const index of indexes) await client.query(index.definition);
    for (const constraint of [...constraints].reverse()) await client.query(`alter table ${constraint.tab} add constraint ${constraint.conname} ${constraint.definition}`);
  };
}

async function seedMembers(client: Client, scale: LargeScale, now: Date): Promise<void> {
  const names = (list: string[]) => `array[${list.map((name) => `'${name}'`).join(', ')}]`;
  await client.query(
    `insert into auth.member (id, nick_name, name, phone_number, gender, birth_day, status, created_at, updated_at)
     select ${memberIdSql('k')}, 'member' || k,
            (${names(FIRST_NAMES)})[1 + k % ${FIRST_NAMES.length}] || ' ' || (${names(LAST_NAMES)})[1 + (k / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}],
            ${phoneSql('k')},
            (array['Male', 'Female', 'Other'])[1 + k % 3],
            date '1960-01-01' + (k::bigint * 7919 % 16000)::int,
            'ACTIVE', at, at
       from (select k, $1::timestamptz - interval '3 years' + k * (interval '1 year' / $2::int) as at from generate_series(1, $2::int) as k) numbered`,
    [now, scale.members],
  );
}

async function seedTiers(client: Client, scale: LargeScale, now: Date): Promise<void> {
  await client.query(
    `insert into cluster.tier (id, name_en, description_en, level, requirement, benefit, is_active, is_special, created_at, updated_at)
     select ${uuidSql(`'bench-tier:' || level`)}, name, 'Seeded by bench/seed-large.ts', level, jsonb_build_object('purchaseAmountHit', hit), '[]', true, false, $1, $1
       from jsonb_to_recordset($2::jsonb) as tiers(level int, name text, hit int)`,
    [now, JSON.stringify(TIERS)],
  );
  const tierOf = (k: string) => uuidSql(`'bench-tier:' || case when ${k} % 20 < 12 then 1 when ${k} % 20 < 17 then 2 when ${k} % 20 < 19 then 3 else 4 end`);
  const numbered = `select k, $1::timestamptz - interval '3 years' + k * (interval '1 year' / $2::int) + interval '1 day' as at from generate_series(1, $2::int) as k`;
  await client.query(
    `insert into cluster.tier_projection (id, member_id, tier_id, tier_end_at, created_at, updated_at)
     select ${uuidSql(`'bench-projection:' || k`)}, ${memberIdSql('k')}, ${tierOf('k')}, null, at, at from (${numbered}) numbered`,
    [now, scale.members],
  );
  await client.query(
    `insert into cluster.tier_history (id, member_id, change_type, snapshot, from_tier_id, to_tier_id, created_at)
     select ${uuidSql(`'bench-tier-history:' || k`)}, ${memberIdSql('k')}, 'upgrade', '{}', null, ${tierOf('k')}, at from (${numbered}) numbered`,
    [now, scale.members],
  );
}

function described(scale: LargeScale, seconds: number, seededAt: Date, seededNow: boolean): SeededLarge {
  const heavyTransactions = Math.floor(scale.transactions / 10);
  return {
    ...scale,
    heavyMemberId: memberId(1),
    heavyTransactions,
    heavyBalance: EARN * Math.ceil(heavyTransactions / 2) - SPEND * Math.floor(heavyTransactions / 2),
    seconds,
    seededAt: seededAt.toISOString(),
    seededNow,
  };
}

/** What `seedCodes` left: the catalog whose codes were issued, how many, and when. */
export interface SeededCodes {
  catalogId: string;
  codes: number;
  seconds: number;
  seededNow: boolean;
}

/** SQL of the k-th seeded code: 6 characters of the code alphabet, all different for k below 30^6 (7919 is prime to 30). */
const codeSql = (k: string) =>
  `(select string_agg(substr('${CODE_ALPHABET}', 1 + ((${k}::bigint * 7919 + 12345) % 729000000 / (30 ^ i)::bigint % 30)::int, 1), '' order by i) from generate_series(0, 5) as i)`;

/**
 * Issues `codes` reward codes of one catalog with set-based SQL into reward's tables, as redemptions
 * would have: a COMPLETED redemption by each of the seeded members 1..codes and its code (a third of
 * them used), the reward's stock and both redeemed counts moved by as many; then vacuums and analyzes.
 * The catalog is `createCatalog`'s (made through the platform, with a stock above `codes`); a database
 * whose codes were seeded already (public.bench_seed_codes) is reused as it is.
 */
export async function seedCodes(databaseUrl: string, codes: number, createCatalog: () => Promise<string>): Promise<SeededCodes> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`create table if not exists public.bench_seed_codes (catalog_id uuid not null, codes bigint not null, seconds numeric not null, seeded_at timestamptz not null)`);
    const { rows: [marker] } = await client.query('select catalog_id, codes::int, seconds::float8 from public.bench_seed_codes');
    if (marker) {
      if (marker.codes !== codes) throw new Error(`this database holds ${marker.codes} seeded codes, not ${codes}: use another DATA_DIR`);
      return { catalogId: marker.catalog_id, codes, seconds: marker.seconds, seededNow: false };
    }
    const catalogId = await createCatalog();
    const started = process.hrtime.bigint();
    const { rows: [{ now }] } = await client.query('select now()');
    await client.query('begin');
    const numbered = `select k, $2::timestamptz - interval '1 year' + k * (interval '1 year' / $3::int) as at from generate_series(1, $3::int) as k`;
    await client.query(
      `insert into reward.redemption (id, member_id, reward_catalog_id, reward_id, point_usage, idempotency_key, quantity, state, stock_taken, completed_at, created_at, updated_at)
       select ${uuidSql(`'bench-redemption:' || k`)}, ${memberIdSql('k')}, c.id, c.reward_id, c.point_usage, 'bench-seed-' || k, 1, 'COMPLETED', true, at, at, at
         from reward.reward_catalog c, (${numbered}) numbered where c.id = $1`,
      [catalogId, now, codes],
    );
    await client.query(
      `insert into reward.reward_code (id, code, reward_id, reward_catalog_id, member_id, redemption_id, staff_id, used_at, expired_at, created_at, updated_at)
       select ${uuidSql(`'bench-code:' || k`)}, ${codeSql('k')}, c.reward_id, c.id, ${memberIdSql('k')}, ${uuidSql(`'bench-redemption:' || k`)},
              case when k % 3 = 0 then 'bench-staff' end, case when k % 3 = 0 then at + interval '1 day' end, $2::timestamptz + interval '2 years', at, at
         from reward.reward_catalog c, (${numbered}) numbered where c.id = $1`,
      [catalogId, now, codes],
    );
    await client.query(
      `with catalog as (update reward.reward_catalog set redeemed_count = redeemed_count + $2 where id = $1 returning reward_id)
       update reward.reward set stock = stock - $2, redeemed_count = redeemed_count + $2 where id = (select reward_id from catalog)`,
      [catalogId, codes],
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await client.query('insert into public.bench_seed_codes (catalog_id, codes, seconds, seeded_at) values ($1, $2, $3, now())', [catalogId, codes, seconds]);
    await client.query('commit');
    await client.query('vacuum (analyze) reward.redemption, reward.reward_code, reward.reward, reward.reward_catalog');
    return { catalogId, codes, seconds, seededNow: true };
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}
