import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { Target } from './load';

/** Customers booking at once, each `GUESTS` guests in one of the evening's slots. */
const BOOKERS = Number(process.env.BENCH_BOOKERS ?? 400);
const CAPACITY = Number(process.env.BENCH_BOOKING_CAPACITY ?? 20);
const GUESTS = 2;
const EVENING = ['18:00', '19:00', '20:00', '21:00'];
/** A smaller burst first, at a venue of its own, so that the measured one does not pay for cold code paths. */
const WARM_UP_BOOKERS = 20;

async function call(target: Target, method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${target.restUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** A restaurant open 18:00 to 22:00, hourly slots of CAPACITY guests; its id. */
async function createVenue(target: Target): Promise<string> {
  const venue = await call(target, 'POST', '/api/v1/venues', { name: `Bench venue ${randomUUID()}`, type: 'restaurant', capacity: CAPACITY, opening_time: '18:00', closing_time: '22:00' });
  if (venue.status !== 201) throw new Error(`creating the venue answered ${venue.status} ${JSON.stringify(venue.body)}`);
  return venue.body.data.id;
}

/** `count` members straight in the auth schema. */
async function createMembers(pool: Pool, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await pool.query(`insert into auth.member (id, name, status, created_at, updated_at) select id, 'Bench booker', 'ACTIVE', now(), now() from unnest($1::uuid[]) as id`, [ids]);
  return ids;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** One POST /api/v1/bookings per member, all at once (staff for the member, each with its own Idempotency-Key), spread over the evening's slots. */
async function burst(target: Target, venueId: string, memberIds: string[], date: string) {
  const started = performance.now();
  const results = await Promise.all(
    memberIds.map(async (memberId, index) => {
      const sent = performance.now();
      const body = { customer_id: memberId, venue_id: venueId, type: 'table', date, time: EVENING[index % EVENING.length], duration: 60, guests: GUESTS };
      const response = await call(target, 'POST', '/api/v1/bookings', body, { 'idempotency-key': randomUUID() });
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
 * The baseline: the same race with nothing but its core, BOOKERS conditional UPDATEs of one of the four
 * slot rows (`held + guests <= capacity`) sent at once over the bench's own pool, each its own
 * statement, in a table of the bench's own (dropped after).
 */
async function sqlBurst(pool: Pool) {
  const table = `bench_slot_${randomUUID().replace(/-/g, '')}`;
  await pool.query(`create table public.${table} (slot text primary key, held int not null, capacity int not null)`);
  try {
    await pool.query(`insert into public.${table} select unnest($1::text[]), 0, $2`, [EVENING, CAPACITY]);
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: BOOKERS }, async (_, index) => {
        const sent = performance.now();
        const { rowCount } = await pool.query(`update public.${table} set held = held + $1 where slot = $2 and held + $1 <= capacity`, [GUESTS, EVENING[index % EVENING.length]]);
        return { taken: rowCount === 1, ms: performance.now() - sent };
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return { seconds, taken: results.filter((result) => result.taken).length, latencies: results.map((result) => result.ms).sort((a, b) => a - b) };
  } finally {
    await pool.query(`drop table public.${table}`);
  }
}

/**
 * BOOKERS distinct customers book GUESTS places each in one of an evening's four slots of CAPACITY at
 * once, through REST: then every slot holds exactly CAPACITY (its confirmed bookings' guests, never
 * more), every refusal is a 422 NO_AVAILABILITY. Prints the request rate and latencies.
 */
export async function bookingBurst(target: Target, pool: Pool): Promise<boolean> {
  const date = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await burst(target, await createVenue(target), await createMembers(pool, WARM_UP_BOOKERS), date);

  const venueId = await createVenue(target);
  const memberIds = await createMembers(pool, BOOKERS);
  const result = await burst(target, venueId, memberIds, date);
  const { rows } = await pool.query(
    `select to_char(s.starts_at, 'HH24:MI') as time, s.held,
            (select coalesce(sum(b.guests), 0)::int from booking.booking b where b.venue_id = s.venue_id and b.status = 'confirmed' and s.starts_at = any(b.slot_starts)) as booked
     from booking.venue_slot s where s.venue_id = $1 order by s.starts_at`,
    [venueId],
  );

  const baseline = await sqlBurst(pool);
  const line = (name: string, seconds: number, latencies: number[], outcome: string) =>
    `${name.padEnd(36)} ${(BOOKERS / seconds).toFixed(0).padStart(7)} ${percentile(latencies, 50).toFixed(0).padStart(9)} ${percentile(latencies, 99).toFixed(0).padStart(8)} ${latencies[latencies.length - 1].toFixed(0).padStart(8)}   ${outcome}`;
  console.log(`\nPOST /api/v1/bookings, ${BOOKERS} distinct customers at once, ${EVENING.length} slots of ${CAPACITY} guests, ${GUESTS} guests each\n`);
  console.log('scenario                              req/s     p50 ms   p99 ms   max ms   statuses');
  console.log(line('bookings: REST -> gateway -> booking', result.seconds, result.latencies, JSON.stringify(result.statuses)));
  console.log(line('baseline: the slot UPDATE alone (pg)', baseline.seconds, baseline.latencies, `${baseline.taken} taken`));
  console.log(`the burst took ${result.seconds.toFixed(2)} s; slots after it: ${rows.map((row) => `${row.time} held ${row.held} booked ${row.booked}`).join(', ')}`);

  const problems: string[] = [];
  const expected = Math.min(BOOKERS, EVENING.length * Math.floor(CAPACITY / GUESTS));
  if (result.statuses[201] !== expected) problems.push(`${result.statuses[201] ?? 0} bookings succeeded, expected ${expected}`);
  if (baseline.taken !== expected) problems.push(`the baseline took ${baseline.taken} places, expected ${expected}`);
  if (result.unexpected.length > 0) problems.push(`unexpected answers: ${result.unexpected.join('; ')}`);
  for (const row of rows) {
    if (row.held > CAPACITY) problems.push(`slot ${row.time} holds ${row.held} guests, capacity ${CAPACITY}`);
    if (row.held !== row.booked) problems.push(`slot ${row.time} holds ${row.held} but its bookings have ${row.booked} guests`);
  }
  console.log(problems.length === 0 ? 'bookings: PASS' : `bookings: FAIL (${problems.join('; ')})`);
  return problems.length === 0;
}
