import { Response } from 'express';
import { Pool, PoolClient } from 'pg';

/** A refusal a baseline answers as is: its status and body (the transaction is rolled back). */
export class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** Runs `work` in one transaction on a pooled client: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

/** Answers what a baseline threw: the refusal as is, anything else as a 500. */
export function answerFailure(res: Response, error: unknown): void {
  if (error instanceof Answer) return void res.status(error.status).json(error.body);
  console.error(error);
  res.status(500).json({ statusCode: 500, data: { message: 'Internal server error' } });
}

/** Sends a baseline's answer: the one it returned, or the refusal it threw. */
export function answer(res: Response, work: () => Promise<Answer>): Promise<void> {
  return work().then(({ status, body }) => void res.status(status).json(body), (error) => answerFailure(res, error));
}
