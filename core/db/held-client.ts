import { Pool, PoolClient } from 'pg';

/**
 * Runs `work` on a client checked out of `pool`. While it is checked out, a pool's `error` listener
 * no longer covers it, and a connection lost between two statements is emitted as an `error` nobody
 * hears, which ends the process: here it is heard, and the statement that follows fails instead. A
 * client whose work failed is closed rather than put back (it may have lost its connection, or still
 * hold a session lock or a transaction).
 */
export async function withHeldClient<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  guardNewClients(pool);
  const client = await pool.connect();
  let failure: Error | undefined;
  const lost = (error: Error) => {
    failure ??= error;
  };
  client.on('error', lost);
  try {
    return await work(client);
  } catch (error) {
    failure ??= error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.off('error', lost);
    client.release(failure);
  }
}

const guarded = new WeakSet<Pool>();

/**
 * Gives every new client of `pool` an `error` listener of its own, for good. pg-pool hands a new client
 * over by resolving a promise: its own listener is already removed, ours (withHeldClient's) is attached
 * only in a later microtask. A server that ends the connection right after it became ready (an operator's
 * pg_terminate_backend, a restart) can send that error in the same network read as the ready message,
 * between the two: an `error` nobody hears, which ends the process. Heard here, the connection is found
 * lost at its first statement instead, and the client closed (withHeldClient).
 */
function guardNewClients(pool: Pool): void {
  if (guarded.has(pool)) return;
  guarded.add(pool);
  pool.on('connect', (client) => client.on('error', () => undefined));
}

/** `work` in one transaction on `client`: committed when it resolves, rolled back when it throws. */
export async function transactionOn<T>(client: PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('begin');
  try {
    const result = await work();
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}

/** `work` in one transaction on a client held from `pool` (withHeldClient). */
export const inHeldTransaction = <T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> =>
  withHeldClient(pool, (client) => transactionOn(client, () => work(client)));
