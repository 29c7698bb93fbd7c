import { Client } from 'pg';
import { Principal } from '../../core/auth/principal';
import { CallerRateLimiter, reservationBlock } from '../../core/rate-limit';
import { createScratchDatabase, ScratchDatabase } from '../support/scratch-database';

/** Two instances (adapters, gateways, workers) counting one caller against the same PostgreSQL. */
describe('caller rate limits reserved in blocks', () => {
  let database: ScratchDatabase;
  const opened: CallerRateLimiter[] = [];
  const open = async (standardPerHour: number, namespace: string) => {
    const limiter = await CallerRateLimiter.open(database.url, { standardPerHour, premiumPerHour: standardPerHour * 10 }, namespace);
    opened.push(limiter);
    return limiter;
  };
  const sharedPoints = async (namespace: string, caller: Principal): Promise<number> => {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query('select points from edge.rate_limit where key = $1', [`${namespace}:standard:${caller.kind}:${caller.id}`]);
      return rows[0]?.points ?? 0;
    } finally {
      await client.end();
    }
  };
  const member = (id: string) => new Principal('member', id, 'member', []);

  beforeAll(async () => {
    database = await createScratchDatabase('rate_limit');
  });
  afterAll(async () => {
    for (const limiter of opened) await limiter.close();
    await database.drop();
  });

  it('takes a hundredth of the limit at a time, at least one and at most a thousand', () => {
    expect([3, 99, 100, 1000, 10_000, 1_000_000].map(reservationBlock)).toEqual([1, 1, 1, 10, 100, 1000]);
  });

  it('counts down the remaining requests one by one on one instance while writing once per block', async () => {
    const limiter = await open(1000, 'single');
    const caller = member('m-single');
    const remaining: number[] = [];
    for (let i = 0; i < 12; i++) remaining.push((await limiter.consume(caller, undefined)).remaining);
    expect(remaining).toEqual([999, 998, 997, 996, 995, 994, 993, 992, 991, 990, 989, 988]);
    expect(await sharedPoints('single', caller)).toBe(20);
  });

  it('never lets a caller past the limit across instances, and refuses it at most a block per other instance early', async () => {
    const [first, second] = [await open(1000, 'pair'), await open(1000, 'pair')];
    const caller = member('m-pair');
    let allowed = 0;
    for (let i = 0; i < 1100; i++) {
      const decision = await (i % 3 === 0 ? second : first).consume(caller, undefined);
      if (decision.allowed) allowed++;
    }
    expect(allowed).toBeLessThanOrEqual(1000);
    expect(allowed).toBeGreaterThanOrEqual(1000 - reservationBlock(1000));
    expect(await sharedPoints('pair', caller)).toBeLessThanOrEqual(1000 + 2 * reservationBlock(1000));
  });

  it('counts a small limit request by request across instances, and refuses a spent caller without writing again', async () => {
    const [first, second] = [await open(3, 'small'), await open(3, 'small')];
    const caller = member('m-small');
    const decisions = [];
    for (const limiter of [first, second, first, second, first]) decisions.push(await limiter.consume(caller, undefined));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, false, false]);
    expect(decisions[3]).toMatchObject({ remaining: 0, limit: 3 });
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
});
