import { randomUUID } from 'node:crypto';
import { AppError } from '../../core/errors';
import { pointModule } from '../../subgraphs/point/module';
import { onceForKey } from '../../subgraphs/point/services/idempotency';
import { useModuleDatabase } from '../support/module-database';

const db = useModuleDatabase(pointModule);

/** A request under an Idempotency-Key, in its own transaction; its work counts its runs and returns a new id. */
function requester() {
  let runs = 0;
  const send = (key: string | undefined, body: unknown, scope = 'earn') =>
    db.em().transactional((em) =>
      onceForKey(em, scope, key, body, async () => {
        runs += 1;
        return randomUUID();
      }),
    );
  return { send, runs: () => runs };
}

describe('a request under an Idempotency-Key', () => {
  it('runs every time without a key', async () => {
    const { send, runs } = requester();
    const [first, second] = [await send(undefined, { amount: 1 }), await send(undefined, { amount: 1 })];
    expect(first.id).not.toBe(second.id);
    expect([first.replayed, second.replayed, runs()]).toEqual([false, false, 2]);
  });

  it('runs once per key: a repeat with the same body, in any key order, gets the first result back', async () => {
    const { send, runs } = requester();
    const key = randomUUID();
    const first = await send(key, { memberId: 'm', amount: 5, detail: { shopId: 's', note: 'n' } });
    const repeat = await send(key, { detail: { note: 'n', shopId: 's' }, amount: 5, memberId: 'm' });
    expect(first).toEqual({ id: expect.any(String), replayed: false });
    expect(repeat).toEqual({ id: first.id, replayed: true });
    expect(runs()).toBe(1);
  });

  it('refuses the same key with another body: 409 on Idempotency-Key', async () => {
    const { send, runs } = requester();
    const key = randomUUID();
    await send(key, { amount: 5 });
    const refused = await send(key, { amount: 6 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'CONFLICT', fieldErrors: [{ field: 'Idempotency-Key', message: 'This Idempotency-Key was used with a different request' }] });
    expect(runs()).toBe(1);
  });

  it('keeps keys apart by scope', async () => {
    const { send, runs } = requester();
    const key = randomUUID();
    const earn = await send(key, { amount: 5 }, 'earn');
    const spend = await send(key, { amount: 5 }, 'spend');
    expect(spend).toEqual({ id: expect.any(String), replayed: false });
    expect(spend.id).not.toBe(earn.id);
    expect(runs()).toBe(2);
  });

  it('frees the key when the first request’s transaction fails', async () => {
    const key = randomUUID();
    const failed = await db
      .em()
      .transactional(async (em) => {
        await onceForKey(em, 'earn', key, { amount: 5 }, async () => randomUUID());
        throw new Error('the request failed later');
      })
      .catch((error: Error) => error.message);
    expect(failed).toBe('the request failed later');
    const { send, runs } = requester();
    expect(await send(key, { amount: 5 })).toMatchObject({ replayed: false });
    expect(runs()).toBe(1);
  });

  it('runs once when the same request arrives several times at once', async () => {
    const { send, runs } = requester();
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 6 }, () => send(key, { amount: 5 })));
    expect(runs()).toBe(1);
    expect(new Set(results.map((result) => result.id)).size).toBe(1);
    expect(results.filter((result) => !result.replayed)).toHaveLength(1);
  });

  it('records with the claim the id the work was expected to produce, and the work’s own when it answers another', async () => {
    const send = (key: string, expected: string, produced: string) => db.em().transactional((em) => onceForKey(em, 'earn', key, { amount: 5 }, async () => produced, expected));
    const [first, second, expected, other] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    expect(await send(first, expected, expected)).toEqual({ id: expected, replayed: false });
    expect(await send(second, expected, other)).toEqual({ id: other, replayed: false });
    expect(await send(first, randomUUID(), randomUUID())).toEqual({ id: expected, replayed: true });
    expect(await send(second, randomUUID(), randomUUID())).toEqual({ id: other, replayed: true });
  });
});
