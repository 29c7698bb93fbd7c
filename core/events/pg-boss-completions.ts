/**
 * A patch of pg-boss 10.4.2, applied once when the job queue is loaded. Its worker loop (`Manager#watch`,
 * `onFetch` in pg-boss/src/manager.js) completes or fails a handled batch with `this.complete(...)` /
 * `this.fail(...)` without awaiting either: when the database connection is lost at that moment the
 * promise rejects with no handler, and Node ends the process (every domain's worker in it). Each call's
 * promise here gets a handler that reports the failure on the manager's `error` event (which reaches
 * the PgBoss instance's, logged by `startJobQueue`); a caller that awaits still gets the rejection. The
 * batch stays `active` until its lease runs out, then is tried again (core/events/job-leases.ts).
 */
interface PgBossManager {
  emit: (event: 'error', error: unknown) => boolean;
}
type Completion = (this: PgBossManager, ...args: unknown[]) => Promise<unknown>;

const { prototype } = require('pg-boss/src/manager') as { prototype: Record<'complete' | 'fail', Completion> };

for (const name of ['complete', 'fail'] as const) {
  const original = prototype[name];
  // Named as the original: pg-boss publishes its manager's functions on the PgBoss object by their names.
  prototype[name] = {
    [name](this: PgBossManager, ...args: unknown[]) {
      const result = original.apply(this, args);
      result.catch((error) => {
        try {
          this.emit('error', error);
        } catch {
          // Nobody listens (a PgBoss of a command-line tool): a caller that awaited has the error.
        }
      });
      return result;
    },
  }[name];
}
