import { Pool, PoolClient } from 'pg';

/**
 * Runs `work` on a client checked out of `pool`. While it is checked out, a pool's `error` listener
 * no longer covers it, and a connection lost between two statements is emitted as an `error` nobody
 * hears, which ends the process: here it is heard, and the statement that follows fails instead. A
 * client whose work failed is closed rather than put back (it may have lost its connection, or still
 * hold a session lock or a transaction).
 */
export async function withHeldClient<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
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
