import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { Logger } from '../logger';
import { logFailure, retryWhileUnavailable } from '../unavailable';

/** How long the worker rests when a round did nothing and nothing woke it. */
const IDLE_MS = 250;

/** The lease one claim gives its rows: `seconds` long, held by `token` (which guards recording an outcome). */
export interface Lease {
  token: string;
  seconds: number;
}

/** What an attempt may listen to: its deadline (`attemptMs` after it began) and the process stopping. */
export interface AttemptSignals {
  deadline: AbortSignal;
  stop: AbortSignal;
}

/**
 * Seconds before the next try of a delivery that has used `retriesUsed` retries of `schedule` (seconds
 * before each retry; its length is the number of retries), or undefined once it is spent: give up.
 */
export const nextRetryIn = (schedule: readonly number[], retriesUsed: number): number | undefined => schedule[retriesUsed];

/** What one domain's deliveries are: how they are claimed, sent and recorded. */
export interface LeasedDeliveryPlan<Job extends { id: string }, Outcome> {
  /** Names the work in log lines. */
  label: string;
  /** How long one attempt may take; a lease outlasts it by `leaseMarginMs`. */
  attemptMs: number;
  leaseMarginMs: number;
  /** Attempts in flight in this process at most (Infinity: only the claim limits them). */
  maxInFlight: number;
  /** How long an outcome is tried again while the database is unavailable (0: once). */
  recordForMs: number;
  /**
   * Leases due jobs (at most `free`) under `lease`. `claimed` counts the rows the claim dealt with,
   * those it settled by itself included: the round counts them as work done.
   */
  claim(lease: Lease, free: number): Promise<{ jobs: Job[]; claimed: number }>;
  /** One attempt of the domain's work; never rejects (a failure is an outcome). */
  send(job: Job, signals: AttemptSignals): Promise<Outcome>;
  /** Records an outcome while the job's lease holds; `stopped`: the process was stopping when the attempt ended. */
  record(job: Job, outcome: Outcome, stopped: boolean): Promise<void>;
  /** Settles jobs whose lease ran out (their process died); how many. */
  recover?(): Promise<number>;
  /** The domain's other work, done first in each round; each step says how much it did. */
  otherSteps?: Array<() => Promise<number>>;
}

/**
 * Works off a domain's due jobs under leases, in every process that runs the domain. Each round does the
 * domain's other steps, claims due jobs (a fresh lease token per claim, the lease the attempt's time
 * plus a margin) as far as this process has free attempt slots, and recovers expired leases. Attempts
 * run beside the rounds, each under its deadline; each outcome is recorded while its lease holds, tried
 * again while the database is unavailable (recorded late rather than done again), and wakes the worker.
 * A round that did something is followed by another at once, else after IDLE_MS or a wake.
 */
export class LeasedDeliveryWorker<Job extends { id: string }, Outcome> {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private wakeAgain = false;
  private stopped = true;

  constructor(
    private readonly plan: LeasedDeliveryPlan<Job, Outcome>,
    private readonly logger: Logger,
  ) {
    // Every attempt in flight may listen for the stop.
    setMaxListeners(0, this.stopping.signal);
  }

  start(): void {
    if (!this.stopped || this.stopping.signal.aborted) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Work was just committed (or a slot freed up): look now rather than at the next round. */
  readonly wake = (): void => {
    if (this.round) this.wakeAgain = true;
    else this.schedule(0);
  };

  /** Stops the rounds, signals `stop` to the attempts in flight and waits until every one is recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.stopping.abort();
    await this.round;
    // Attempts ending while stopping start nothing new: wait until none is left.
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.round = this.runRound().then((busy) => {
        this.round = undefined;
        const again = busy || this.wakeAgain;
        this.wakeAgain = false;
        this.schedule(again ? 0 : IDLE_MS);
      });
    }, delay);
  }

  /** One round; true when it did something. */
  private async runRound(): Promise<boolean> {
    try {
      let done = 0;
      for (const step of this.plan.otherSteps ?? []) done += await step();
      done += await this.claimDue();
      if (this.plan.recover) done += await this.plan.recover();
      return done > 0;
    } catch (error) {
      if (!this.stopped) logFailure(this.logger, error, `${this.plan.label}: a round failed`);
      return false;
    }
  }

  /** Leases due jobs as far as this process has free slots and starts their attempts without waiting for them. */
  private async claimDue(): Promise<number> {
    const free = this.plan.maxInFlight - this.inFlight.size;
    if (free <= 0 || this.stopped) return 0;
    const lease = { token: randomUUID(), seconds: Math.ceil((this.plan.attemptMs + this.plan.leaseMarginMs) / 1000) };
    const { jobs, claimed } = await this.plan.claim(lease, free);
    for (const job of jobs) {
      const attempt = this.attempt(job).finally(() => {
        this.inFlight.delete(attempt);
        this.wake();
      });
      this.inFlight.add(attempt);
    }
    return claimed;
  }

  /** One attempt, then its outcome recorded (never rejects: what is not recorded is left to its lease running out). */
  private async attempt(job: Job): Promise<void> {
    try {
      const outcome = await this.plan.send(job, { deadline: AbortSignal.timeout(this.plan.attemptMs), stop: this.stopping.signal });
      const stopped = this.stopping.signal.aborted;
      await retryWhileUnavailable(() => this.plan.record(job, outcome, stopped), this.plan.recordForMs, this.stopping.signal);
    } catch (error) {
      logFailure(this.logger, error, `${this.plan.label}: an outcome was not recorded (left to its lease running out)`, { deliveryId: job.id });
    }
  }
}
