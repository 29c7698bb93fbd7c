import { Client } from 'pg';
import { Principal } from '../../core/auth/principal';
import { CallerRateLimiter } from '../../core/rate-limit';
import { createScratchDatabase, ScratchDatabase } from '../support/scratch-database';

/** Instances (adapters, gateways, workers) counting callers against the same PostgreSQL. */
describe('caller rate limits counted in PostgreSQL', () => {
  let database: ScratchDatabase;
  const opened: CallerRateLimiter[] = [];
  const open = async (standardPerHour: number, namespace: string) => {
    const limiter = await CallerRateLimiter.open(database.url, { standardPerHour, premiumPerHour: standardPerHour * 10 }, namespace);
    opened.push(limiter);
    return limiter;
  };
  const sql = async <T = any>(text: string, values: unknown[] = []): Promise<T[]> => {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  const sharedPoints = async (namespace: string, caller: Principal): Promise<number> =>
    (await sql('select points from edge.rate_limit where key = $1', [`${namespace}:standard:${caller.kind}:${caller.id}`]))[0]?.points ?? 0;
  const member = (id: string) => new Principal('member', id, 'member', []);

  beforeAll(async () => {
    database = await createScratchDatabase('rate_limit');
  });
  afterAll(async () => {
    for (const limiter of opened) await limiter.close();
    await database.drop();
  });

  it('keeps the counters in an unlogged table, turning the logged table of earlier versions unlogged', async () => {
    await sql('create schema edge');
    await sql('create table edge.rate_limit (key varchar(255) primary key, points integer not null default 0, expire bigint)');
    await open(10, 'upgrade');
    expect(await sql(`select relpersistence from pg_class where oid = 'edge.rate_limit'::regclass`)).toEqual([{ relpersistence: 'u' }]);
  });

  it('counts every request in the shared counter, the remaining requests falling one by one', async () => {
    const limiter = await open(1000, 'single');
    const caller = member('m-single');
    const remaining: number[] = [];
    for (let i = 0; i < 12; i++) remaining.push((await limiter.consume(caller, undefined)).remaining);
    expect(remaining).toEqual([999, 998, 997, 996, 995, 994, 993, 992, 991, 990, 989, 988]);
    expect(await sharedPoints('single', caller)).toBe(12);
  });

  it('reports consecutive requests served by alternating instances as one falling count', async () => {
    const [first, second] = [await open(10_000, 'alternate'), await open(10_000, 'alternate')];
    const caller = member('m-alternate');
    const remaining: number[] = [];
    for (let i = 0; i < 20; i++) remaining.push((await (i % 2 === 0 ? first : second).consume(caller, undefined)).remaining);
    expect(remaining).toEqual(Array.from({ length: 20 }, (_, i) => 9999 - i));
  });

  it('gives concurrent requests of one caller a place each, counted together', async () => {
    const [first, second] = [await open(1000, 'concurrent'), await open(1000, 'concurrent')];
    const caller = member('m-concurrent');
    const decisions = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? second : first).consume(caller, undefined)));
    expect(decisions.map((decision) => decision.remaining).sort((a, b) => b - a)).toEqual(Array.from({ length: 60 }, (_, i) => 999 - i));
    expect(await sharedPoints('concurrent', caller)).toBe(60);
  });

  it('never lets a caller past the limit across instances, even when its requests arrive at once', async () => {
    const limiters = [await open(25, 'burst'), await open(25, 'burst'), await open(25, 'burst')];
    const caller = member('m-burst');
    const decisions = await Promise.all(Array.from({ length: 90 }, (_, i) => limiters[i % 3].consume(caller, undefined)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(25);
  });

  it('refuses a spent caller on every instance, then from memory without counting again', async () => {
    const [first, second] = [await open(3, 'small'), await open(3, 'small')];
    const caller = member('m-small');
    const decisions = [];
    for (const limiter of [first, second, first, second, first]) decisions.push(await limiter.consume(caller, undefined));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, false, false]);
    expect(decisions.map((decision) => decision.remaining)).toEqual([2, 1, 0, 0, 0]);
    expect(decisions[3]).toMatchObject({ limit: 3 });
    expect(decisions[3].retryAfter).toBeGreaterThan(3500);
    const written = await sharedPoints('small', caller);
    for (let i = 0; i < 5; i++) expect((await second.consume(caller, undefined)).allowed).toBe(false);
    expect(await sharedPoints('small', caller)).toBe(written);
  });

  it('keeps callers apart: another member and an anonymous IP have budgets of their own', async () => {
    const limiter = await open(3, 'apart');
    for (let i = 0; i < 3; i++) await limiter.consume(member('m-busy'), undefined);
    expect((await limiter.consume(member('m-busy'), undefined)).allowed).toBe(false);
    expect((await limiter.consume(member('m-quiet'), undefined)).allowed).toBe(true);
    expect((await limiter.consume(undefined, '203.0.113.9')).allowed).toBe(true);
  });

  it('counts in memory while the database does not answer, and in the shared counter again after', async () => {
    const limiter = await open(100, 'unanswered');
    const caller = member('m-unanswered');
    expect((await limiter.consume(caller, undefined)).remaining).toBe(99);
    const blocker = new Client({ connectionString: database.url });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('lock table edge.rate_limit in access exclusive mode');
      const decisions = [await limiter.consume(caller, undefined), await limiter.consume(caller, undefined)];
      expect(decisions.map((decision) => [decision.allowed, decision.remaining])).toEqual([
        [true, 99],
        [true, 98],
      ]);
    } finally {
      await blocker.end();
    }
    expect((await limiter.consume(caller, undefined)).remaining).toBe(98);
    expect(await sharedPoints('unanswered', caller)).toBe(2);
  }, 15_000);
});
