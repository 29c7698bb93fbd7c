import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { JOB_QUEUE_SCHEMA, startJobQueue, stopJobQueue, workOn } from '../../core/events/job-queue';
import { createLogger } from '../../core/logger';
import { waitFor } from '../support/wait-for';

describe('stopping the job queue', () => {
  it('returns only after the handler of a job it was running has finished and the job is completed', async () => {
    const queue = `test-stop-${randomUUID()}`;
    const boss = await startJobQueue(process.env.TEST_DATABASE_URL!, createLogger('test', 'silent'), [queue]);
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await workOn(boss, queue, { pollingIntervalSeconds: 0.5 }, async () => {
      order.push('started');
      await gate;
      order.push('handled');
    });
    const jobId = await boss.send(queue, {});
    await waitFor(async () => order.includes('started'), 'the handler to start');

    const stopped = stopJobQueue(boss).then(() => order.push('stopped'));
    release();
    await stopped;
    expect(order).toEqual(['started', 'handled', 'stopped']);
    // Completed on the queue's connections, which stayed open for it: not left active until it expires.
    const pool = new Pool({ connectionString: process.env.TEST_DATABASE_URL });
    try {
      const { rows } = await pool.query(`select state from ${JOB_QUEUE_SCHEMA}.job where id = $1`, [jobId]);
      expect(rows).toEqual([{ state: 'completed' }]);
    } finally {
      await pool.end();
    }
  });
});
