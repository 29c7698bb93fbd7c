import { randomUUID } from 'node:crypto';
import { OPEN_ALL_DAY, dayFromNow } from './support/bookings';
import { callRest, PlatformProcess, platformProcessEnv } from './support/platform-process';
import { useTempDirs } from './support/temp-dirs';
import { PLATFORM_START_TIMEOUT_MS, unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

// Issue 27, item 2: point (awards, purchases) and booking ask their own projection of which members
// exist (`<schema>.known_member`, fed by auth's customer.created / customer.deleted) and auth only about
// a member it does not hold. Process A is this file's platform; B a second platform process (bin/start.ts)
// on the same database and secret, as `npm start` runs a worker per core.
const tempDir = useTempDirs('loyalty-member-projection-');
const { platform, admin } = usePlatform({ staff: ['admin'] });
const PROJECTIONS = ['point', 'booking'] as const;
const NOT_FOUND = { error: { code: 'CUSTOMER_NOT_FOUND', message: expect.any(String) } };

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
const onA: Call = (method, path, body) => platform.api(method, path, { token: admin.token, body });

const createCustomer = async (call: Call = onA): Promise<string> => {
  const response = await call('POST', '/api/v1/customers', { name: unique('Projected ') });
  if (response.status !== 200) throw new Error(`customer: ${JSON.stringify(response.body)}`);
  return response.body.data.id;
};
const award = (id: string, call: Call = onA) => call('POST', `/api/v1/customers/${id}/points/award`, { points: 5, reason: 'Projection' });
const purchase = (id: string, call: Call = onA) => call('POST', '/api/v1/transactions', { customer_id: id, amount: 10, external_id: unique('ext') });
let venueId: string;
const book = (id: string, call: Call = onA, time = '19:00') =>
  call('POST', '/api/v1/bookings', { customer_id: id, venue_id: venueId, type: 'table', date: dayFromNow(3), time, duration: 5, guests: 1 });

/** Members made straight in auth's table: no customer.created, so no projection can hold them but by asking auth. */
async function membersWithoutEvents(count: number): Promise<string[]> {
  const { rows } = await platform.sql.query(
    `insert into auth.member (id, status, created_at, updated_at) select gen_random_uuid(), 'ACTIVE', now(), now() from generate_series(1, $1) returning id`,
    [count],
  );
  return rows.map((row) => row.id as string);
}

/** How `schema`'s projection holds the member: 'live', 'deleted', or undefined when it does not hold it. */
const heldIn = async (schema: (typeof PROJECTIONS)[number], id: string) => {
  const [row] = (await platform.sql.query(`select deleted_at from ${schema}.known_member where member_id = $1`, [id])).rows;
  return row ? (row.deleted_at ? 'deleted' : 'live') : undefined;
};
const heldEverywhereAs = (id: string, state: 'live' | 'deleted') =>
  waitFor(async () => (await Promise.all(PROJECTIONS.map((schema) => heldIn(schema, id)))).every((held) => held === state), `${id} ${state} in every projection`);

beforeAll(async () => {
  const venue = await onA('POST', '/api/v1/venues', { name: 'Projection hall', type: 'restaurant', address: '1 Road', phone: '+66 2 123 4567', capacity: 1000, ...OPEN_ALL_DAY });
  venueId = venue.body.data.id;
});

describe('which members exist, on the write paths of point and booking', () => {
  it('awards, records a purchase for and books a customer created a moment before, whether or not its creation reached the projections yet', async () => {
    const id = await createCustomer();
    expect((await award(id)).status).toBe(200);
    expect((await purchase(id)).status).toBe(201);
    expect((await book(id)).status).toBe(201);
    await heldEverywhereAs(id, 'live');
  });

  it('asks auth about a member no projection holds, and remembers the ones auth confirms', async () => {
    const [id] = await membersWithoutEvents(1);
    expect(await heldIn('point', id)).toBeUndefined();
    expect((await award(id)).status).toBe(200);
    expect((await book(id)).status).toBe(201);
    expect(await Promise.all(PROJECTIONS.map((schema) => heldIn(schema, id)))).toEqual(['live', 'live']);
  });

  it('answers 404 CUSTOMER_NOT_FOUND for an unknown customer (and an award for what is no id), as before, and remembers nothing', async () => {
    const id = randomUUID();
    for (const response of [await award(id), await purchase(id), await book(id), await award('not-an-id')]) {
      expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: NOT_FOUND });
    }
    const { rows } = await platform.sql.query('select count(*)::int as n from point.known_member where member_id not in (select id from auth.member)');
    expect(rows[0].n).toBe(0);
  });

  it('refuses a deleted customer once its deletion reached the projections, with the same 404', async () => {
    const id = await createCustomer();
    await heldEverywhereAs(id, 'live');
    expect((await onA('DELETE', `/api/v1/customers/${id}`)).status).toBe(204);
    await heldEverywhereAs(id, 'deleted');
    for (const response of [await award(id), await purchase(id), await book(id)]) expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('answers from the projection alone for a member it holds: a deletion it has not received yet is the documented lag', async () => {
    // A deletion that reached auth's table but no projection (written here without its event): the
    // projections still hold the member, and point and booking accept it without asking auth.
    const [id] = await membersWithoutEvents(1);
    expect((await award(id)).status).toBe(200);
    expect((await book(id)).status).toBe(201);
    await platform.sql.query('update auth.member set deleted_at = now() where id = $1', [id]);
    expect((await award(id)).status).toBe(200);
    expect((await book(id, onA, '20:00')).status).toBe(201);
    // A member a projection holds as deleted is refused without asking auth (a deletion is final).
    const [live] = await membersWithoutEvents(1);
    await platform.sql.query('insert into point.known_member (member_id, deleted_at) values ($1, now())', [live]);
    expect((await award(live)).body).toEqual(NOT_FOUND);
  });
});

describe('a second platform process on the same database', () => {
  const other = new PlatformProcess(() =>
    platformProcessEnv(
      { databaseUrl: process.env.TEST_DATABASE_URL!, dataDir: tempDir(), admin: { email: 'unused@example.com', password: 'unused-password' }, chatappUrl: platform.chatapp.url },
      { JWT_SECRET: platform.config.jwtSecret, RATE_LIMIT_STANDARD_PER_HOUR: '1000000', RATE_LIMIT_PREMIUM_PER_HOUR: '1000000' },
    ),
  );
  let onB: Call;
  let existing: string[];

  beforeAll(async () => {
    // As on a database where the members existed before the projection's migration: they are in auth only.
    existing = await membersWithoutEvents(3);
    const rest = await other.start();
    onB = async (method, path, body) => {
      if (method !== 'DELETE') return callRest(rest, method, path, body, admin.token);
      const response = await fetch(`${rest}${path}`, { method, headers: { authorization: `Bearer ${admin.token}` } });
      return { status: response.status, body: undefined };
    };
  }, PLATFORM_START_TIMEOUT_MS);
  afterAll(() => other.kill('SIGTERM'));

  it('learns at its first write, through auth, each member that existed before the projection, and remembers it', async () => {
    for (const id of existing) {
      expect(await Promise.all(PROJECTIONS.map((schema) => heldIn(schema, id)))).toEqual([undefined, undefined]);
      expect((await award(id, onB)).status).toBe(200);
      expect((await book(id, onB)).status).toBe(201);
      expect(await Promise.all(PROJECTIONS.map((schema) => heldIn(schema, id)))).toEqual(['live', 'live']);
    }
  });

  it('awards and books on one process a customer created on the other; refuses it on both once its deletion reached the projections', async () => {
    const id = await createCustomer(onA);
    expect((await award(id, onB)).status).toBe(200);
    expect((await book(id, onB)).status).toBe(201);
    const fromB = await createCustomer(onB);
    expect((await award(fromB, onA)).status).toBe(200);
    expect((await book(fromB, onA)).status).toBe(201);

    expect((await onB('DELETE', `/api/v1/customers/${id}`)).status).toBe(204);
    await heldEverywhereAs(id, 'deleted');
    for (const call of [onA, onB]) {
      for (const response of [await award(id, call), await purchase(id, call), await book(id, call)]) expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: NOT_FOUND });
    }
  });
});
