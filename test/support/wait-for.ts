import PgBoss from 'pg-boss';

/** The pause before probe `attempt` + 1: 5 ms doubling to 50 ms. */
const pauseAfter = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.min(50, 5 * 2 ** attempt)));

/**
 * Polls `probe` until it gives something (not undefined, null or false) and returns that; fails with
 * `timed out waiting for <what>` past the deadline. Between probes it pauses 5 ms, doubling up to 50 ms:
 * probing back to back (each probe a query or a request through the platform) took the cores from the
 * very work it waited for, slowing every suite on the machine. It waits on the condition, never a set time.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pauseAfter(attempt);
  }
}

/** Sends a job with the test's own queue client and waits until a worker of the platform completed it; a failed job fails the test. */
export async function sendAndWait(boss: PgBoss, queue: string, data: object, timeoutMs?: number): Promise<void> {
  const jobId = await boss.send(queue, data);
  if (!jobId) throw new Error('the job was not created');
  await waitFor(
    async () => {
      const job = await boss.getJobById(queue, jobId);
      if (job?.state === 'failed') throw new Error(`job failed: ${JSON.stringify(job.output)}`);
      return job?.state === 'completed';
    },
    `job ${jobId} on ${queue}`,
    timeoutMs,
  );
}
