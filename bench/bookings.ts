import { randomInt, randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { anonymized, CONNECTIONS, drained, DURATION_SECONDS, loadWrite, printSides, ratio, settled, Target, WARM_UP_SECONDS, WriteRun } from './load';

/** Customers booking at once, each `GUESTS` guests in one of the evening's slots. */
const BOOKERS = Number(process.env.BENCH_BOOKERS ?? 400);
const CAPACITY = Number(process.env.BENCH_BOOKING_CAPACITY ?? 20);
const GUESTS = 2;
const EVENING = ['18:00', '19:00', '20:00', '21:00'];
/** A smaller burst first, at a venue of its own, so that the measured one does not pay for cold code paths. */
const WARM_UP_BOOKERS = 20;

async function call(target: Target, method: string, url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** A restaurant open 18:00 to 22:00, hourly slots of `capacity` guests; its id. */
async function createVenue(target: Target, capacity = CAPACITY): Promise<string> {
  const venue = await call(target, 'POST', `${target.restUrl}/api/v1/venues`, { name: `Bench venue ${randomUUID()}`, type: 'restaurant', capacity, opening_time: '18:00', closing_time: '22:00' });
  if (venue.status !== 201) throw new Error(`creating the venue answered ${venue.status} ${JSON.stringify(venue.body)}`);
  return venue.body.data.id;
}

/** `count` members straight in the auth schema, and in booking's projection of which members exist. */
async function createMembers(pool: Pool, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await pool.query(`insert into auth.member (id, name, status, created_at, updated_at) select id, 'Bench booker', 'ACTIVE', now(), now() from unnest($1::uuid[]) as id`, [ids]);
  // Known to booking's projection of members, as booking's consumer of their creation events would have made them.
  await pool.query(`insert into booking.known_member (member_id) select unnest($1::uuid[])`, [ids]);
  return ids;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Who answers the bookings: the platform, or the hand-written baseline in the bench target (bench/baselines/bookings.ts). */
interface BookingRoute {
  name: string;
  url: (target: Target) => string;
}

const BOOKING_ROUTES: BookingRoute[] = [
  { name: 'bookings: REST -> gateway -> booking', url: (target) => `${target.restUrl}/api/v1/bookings` },
  { name: 'baseline: express + jose + pg', url: (target) => `${target.baselineUrl}/baseline/v1/bookings` },
];

/** One POST /api/v1/bookings per member, all at once (staff for the member, each with its own Idempotency-Key), spread over the evening's slots. */
async function burst(target: Target, route: BookingRoute, venueId: string, memberIds: string[], date: string) {
  const started = performance.now();
  const results = await Promise.all(
    memberIds.map(async (memberId, index) => {
      const sent = performance.now();
      const body = { customer_id: memberId, venue_id: venueId, type: 'table', date, time: EVENING[index % EVENING.length], duration: 60, guests: GUESTS };
      const response = await call(target, 'POST', route.url(target), body, { 'idempotency-key': randomUUID() });
      return { ...response, ms: performance.now() - sent };
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const statuses: Record<number, number> = {};
  const unexpected: string[] = [];
  for (const { status, body } of results) {
    statuses[status] = (statuses[status] ?? 0) + 1;
    const full = status === 422 && body.error?.code === 'NO_AVAILABILITY';
    if (status !== 201 && !full && unexpected.length < 3) unexpected.push(`${status} ${JSON.stringify(body).slice(0, 300)}`);
  }
  return { statuses, unexpected, seconds, latencies: results.map((result) => result.ms).sort((a, b) => a - b) };
}

/**
 * A warm-up burst at a venue of its own, then the measured one at a fresh venue with fresh customers,
 * and its check: exactly as many 201 as the slots hold, every other answer a 422 NO_AVAILABILITY,
 * every slot at most CAPACITY and holding exactly its confirmed bookings' guests.
 */
async function measure(target: Target, pool: Pool, route: BookingRoute, date: string) {
  await burst(target, route, await createVenue(target), await createMembers(pool, WARM_UP_BOOKERS), date);
  const venueId = await createVenue(target);
  const memberIds = await createMembers(pool, BOOKERS);
  if (!(await drained(target.databaseUrl))) console.log(`${route.name}: the burst sent with the event consumers' backlog of the work before it not drained`);
  const result = await burst(target, route, venueId, memberIds, date);
  const rows = await slotsOf(pool, venueId);
  const problems: string[] = [];
  const expected = Math.min(BOOKERS, EVENING.length * Math.floor(CAPACITY / GUESTS));
  if (result.statuses[201] !== expected) problems.push(`${result.statuses[201] ?? 0} bookings succeeded, expected ${expected}`);
  if (result.unexpected.length > 0) problems.push(`unexpected answers: ${result.unexpected.join('; ')}`);
  for (const row of rows) {
    if (row.held > CAPACITY) problems.push(`slot ${row.time} holds ${row.held} guests, capacity ${CAPACITY}`);
    if (row.held !== row.booked) problems.push(`slot ${row.time} holds ${row.held} but its bookings have ${row.booked} guests`);
  }
  const slots = rows.map((row) => `${row.time} held ${row.held} booked ${row.booked}`).join(', ');
  return { result, slots, problems: problems.map((problem) => `${route.name}: ${problem}`) };
}

/** Each slot of the venue: its time, the guests it holds, and the guests of the confirmed bookings in it. */
async function slotsOf(pool: Pool, venueId: string): Promise<Array<{ time: string; held: number; booked: number }>> {
  const { rows } = await pool.query(
    `select to_char(s.starts_at, 'YYYY-MM-DD HH24:MI') as time, s.held,
            (select coalesce(sum(b.guests), 0)::int from booking.booking b where b.venue_id = s.venue_id and b.status = 'confirmed' and s.starts_at = any(b.slot_starts)) as booked
     from booking.venue_slot s where s.venue_id = $1 order by s.starts_at`,
    [venueId],
  );
  return rows;
}

/**
 * BOOKERS distinct customers book GUESTS places each in one of an evening's four slots of CAPACITY at
 * once, through REST, and the same at a fresh venue through the hand-written baseline; each checked
 * as `measure` says. Prints both request rates and latencies, and their ratios.
 */
export async function bookingBurst(target: Target, pool: Pool): Promise<boolean> {
  const date = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const measured = [];
  for (const route of BOOKING_ROUTES) measured.push({ route, ...(await measure(target, pool, route, date)) });

  console.log(`\nPOST /api/v1/bookings, ${BOOKERS} distinct customers at once, ${EVENING.length} slots of ${CAPACITY} guests, ${GUESTS} guests each\n`);
  console.log('scenario                              req/s     p50 ms   p99 ms   max ms   statuses');
  for (const { route, result, slots } of measured) {
    const { seconds, latencies } = result;
    console.log(
      `${route.name.padEnd(36)} ${(BOOKERS / seconds).toFixed(0).padStart(7)} ${percentile(latencies, 50).toFixed(0).padStart(9)} ${percentile(latencies, 99).toFixed(0).padStart(8)} ${latencies[latencies.length - 1].toFixed(0).padStart(8)}   ${JSON.stringify(result.statuses)}`,
    );
    console.log(`${''.padEnd(36)} the burst took ${seconds.toFixed(2)} s; slots after it: ${slots}`);
  }
  const [platform, baseline] = measured.map(({ result }) => result);
  console.log(`\nbookings platform / baseline: request rate ${ratio(BOOKERS / platform.seconds, BOOKERS / baseline.seconds)}, p99 latency ${(percentile(platform.latencies, 99) / percentile(baseline.latencies, 99)).toFixed(2)}x`);
  const problems = measured.flatMap((side) => side.problems);
  console.log(problems.length === 0 ? 'bookings: PASS' : `bookings: FAIL (${problems.join('; ')})`);
  return problems.length === 0;
}

/** The steady scenario's slots: the evening's four on each of this many days, so many that nothing is refused. */
const STEADY_DAYS = 5;
const STEADY_CAPACITY = 100_000;
const STEADY_CUSTOMERS = 200;

/** The day `days` from today, YYYY-MM-DD. */
const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * On each side, at a fresh venue of 2 guests a slot: a booking, its repeat with the same key (the same
 * booking), another booking of the same slot (422 NO_AVAILABILITY) and one for an unknown customer
 * (404). The answers, ids, times and check-in codes left out, which both sides must give alike; a
 * problem when the repeat answered another body.
 */
async function bookingAnswers(target: Target, pool: Pool, route: BookingRoute): Promise<{ answers: string; problems: string[] }> {
  const venueId = await createVenue(target, GUESTS);
  const [customer, other] = await createMembers(pool, 2);
  const book = (customerId: string, key: string) =>
    call(target, 'POST', route.url(target), { customer_id: customerId, venue_id: venueId, type: 'table', date: dayFromNow(1), time: EVENING[0], duration: 60, guests: GUESTS }, { 'idempotency-key': key });
  const key = randomUUID();
  const answers = [await book(customer, key), await book(customer, key), await book(other, randomUUID()), await book(randomUUID(), randomUUID())];
  const problems = JSON.stringify(answers[1]) === JSON.stringify(answers[0]) ? [] : [`a repeat of the key answered ${JSON.stringify(answers[1])}, first ${JSON.stringify(answers[0])}`];
  return { answers: JSON.stringify(anonymized(answers, ['check_in_code', 'qr_code'])), problems };
}

/**
 * One side of the steady booking: a warm-up and the measured run at a fresh venue, each request
 * GUESTS guests for a random customer in a random one of the evening slots of the next STEADY_DAYS
 * days, each its own Idempotency-Key, once the platform has consumed the events of what ran before; then the check: every answer 201, as many confirmed bookings as
 * answers (and at most the requests dropped in flight more), and every slot holding exactly its
 * bookings' guests.
 */
async function steadySide(target: Target, pool: Pool, route: BookingRoute): Promise<{ run: WriteRun; problems: string[] }> {
  const venueId = await createVenue(target, STEADY_CAPACITY);
  const customers = await createMembers(pool, STEADY_CUSTOMERS);
  const url = new URL(route.url(target));
  const next = () => ({
    path: url.pathname,
    body: JSON.stringify({ customer_id: customers[randomInt(customers.length)], venue_id: venueId, type: 'table', date: dayFromNow(1 + randomInt(STEADY_DAYS)), time: EVENING[randomInt(EVENING.length)], duration: 60, guests: GUESTS }),
    headers: { 'idempotency-key': randomUUID() },
  });
  if (!(await drained(target.databaseUrl))) console.log(`${route.name}: measured with the event consumers' backlog of the work before it not drained`);
  const warmUp = await loadWrite(url.origin, target.token, next, (status) => status === 201, WARM_UP_SECONDS);
  const run = await loadWrite(url.origin, target.token, next, (status) => status === 201, DURATION_SECONDS);
  const bookings = await settled(async () => (await pool.query(`select count(*)::int as n from booking.booking where venue_id = $1 and status = 'confirmed'`, [venueId])).rows[0].n);
  const slots = await slotsOf(pool, venueId);
  const answered = (warmUp.statuses.get(201) ?? 0) + (run.statuses.get(201) ?? 0);
  const inFlight = 2 * CONNECTIONS;
  const problems: string[] = [];
  if (bookings < answered || bookings > answered + inFlight) problems.push(`${bookings} bookings for ${answered} answers 201 (+ at most ${inFlight} dropped in flight)`);
  for (const slot of slots) if (slot.held !== slot.booked) problems.push(`slot ${slot.time} holds ${slot.held} but its bookings have ${slot.booked} guests`);
  const held = slots.reduce((sum, slot) => sum + slot.held, 0);
  if (held !== bookings * GUESTS) problems.push(`the slots hold ${held} guests for ${bookings} bookings of ${GUESTS}`);
  for (const side of [warmUp, run]) problems.push(...side.unexpected.map((answer) => `unexpected answer ${answer}`));
  if (warmUp.result.errors + run.result.errors > 0) problems.push(`${warmUp.result.errors + run.result.errors} connection errors or timeouts`);
  console.log(`${route.name}: ${answered} answers 201 (warm-up included); ${bookings} confirmed bookings, ${slots.length} slots holding ${held} guests`);
  return { run, problems: problems.map((problem) => `${route.name}: ${problem}`) };
}

/**
 * Steady bookings: CONNECTIONS connections for BENCH_DURATION book GUESTS guests in slots with room
 * for all, through REST and beside it through the hand-written baseline (bench/baselines/bookings.ts),
 * each at its own venue, checked as `steadySide` says. Before, both answer a booking, its repeat and
 * two refusals alike. Prints the rates, latencies and ratios.
 */
export async function bookingSteady(target: Target, pool: Pool): Promise<boolean> {
  const [platformRoute, baselineRoute] = BOOKING_ROUTES;
  console.log('');
  const problems: string[] = [];
  const answers = [await bookingAnswers(target, pool, baselineRoute), await bookingAnswers(target, pool, platformRoute)];
  problems.push(...answers[0].problems.map((problem) => `${baselineRoute.name}: ${problem}`), ...answers[1].problems.map((problem) => `${platformRoute.name}: ${problem}`));
  if (answers[0].answers !== answers[1].answers) problems.push(`the answers differ: baseline ${answers[0].answers}, platform ${answers[1].answers}`);
  // The platform first: its event consumers then never work through the backlog of the baseline's faster run while measured.
  const platform = await steadySide(target, pool, platformRoute);
  const baseline = await steadySide(target, pool, baselineRoute);
  problems.push(...baseline.problems, ...platform.problems);
  printSides(`POST /api/v1/bookings, steady, ${EVENING.length * STEADY_DAYS} slots of ${STEADY_CAPACITY} guests, ${STEADY_CUSTOMERS} customers, ${GUESTS} guests each`, [
    [baselineRoute.name, baseline.run.result],
    [platformRoute.name, platform.run.result],
  ]);
  for (const problem of problems) console.log(`  ${problem}`);
  console.log(problems.length === 0 ? 'bookings steady: PASS (same answers; every booking in its slots, nothing refused)' : `bookings steady: FAIL (${problems.length} problems)`);
  return problems.length === 0;
}
