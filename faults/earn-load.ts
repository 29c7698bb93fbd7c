import { randomUUID } from 'node:crypto';

/** Earns started per second and earns in flight at most (the steady load). */
export const EARNS_PER_SECOND = 50;
export const IN_FLIGHT = 20;
/** An attempt that has not answered in this long is abandoned and retried with its key. */
const ATTEMPT_TIMEOUT_MS = 30_000;
/** The pause before retrying a failed attempt. */
const RETRY_PAUSE_MS = 250;

/** What the attempts of one stretch of load met. */
export interface LoadStats {
  attempts: number;
  /** Connections the REST port refused. */
  refused: number;
  /** Other socket errors and attempts that timed out. */
  socketErrors: number;
  /** Answers by status code, 2xx included. */
  statuses: Map<number, number>;
  /** When each failed attempt ended, and each successful one (ms). */
  failures: number[];
  successes: number[];
  /** The slowest answer (ms). */
  slowestMs: number;
  /** Earns that needed more than one attempt. */
  retried: number;
}

/** The earns of one stretch that answered 2xx: points per member, their keys and the ledger entries they answered. */
export interface Confirmed {
  pointsByMember: Map<string, number>;
  keys: string[];
  entryIds: string[];
}

/**
 * Steady earns on the v1 award path: EARNS_PER_SECOND started, at most IN_FLIGHT at once, each with an
 * `Idempotency-Key` of its own (kept in its metadata too, so that the ledger can be checked per key),
 * retried with that key after any failure until it answers 2xx.
 */
export class EarnLoad {
  private running = false;
  private inFlight = new Set<Promise<void>>();
  private next = 0;
  private members: string[] = [];
  stats = emptyStats();
  confirmed: Confirmed = { pointsByMember: new Map(), keys: [], entryIds: [] };

  constructor(
    private readonly rest: string,
    private readonly token: () => string,
  ) {}

  /** Starts a stretch of load on `members`; `stats` and `confirmed` restart from nothing. */
  start(members: string[]): void {
    this.running = true;
    this.members = members;
    this.stats = emptyStats();
    this.confirmed = { pointsByMember: new Map(), keys: [], entryIds: [] };
    void this.pace();
  }

  /** Stops starting earns and resolves once every earn started has answered 2xx (or `timeoutMs` passed: false). */
  async stop(timeoutMs: number): Promise<boolean> {
    this.running = false;
    const drained = Promise.all([...this.inFlight]).then(() => true);
    return Promise.race([drained, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref())]);
  }

  private async pace(): Promise<void> {
    const interval = 1000 / EARNS_PER_SECOND;
    let due = Date.now();
    while (this.running) {
      if (this.inFlight.size < IN_FLIGHT) {
        const earn = this.earn(this.members[this.next++ % this.members.length], 1 + (this.next % 10));
        this.inFlight.add(earn);
        void earn.finally(() => this.inFlight.delete(earn));
      }
      due += interval;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
      // After a stall (every slot taken), no burst to catch up.
      due = Math.max(due, Date.now() - interval);
    }
  }

  private async earn(member: string, points: number): Promise<void> {
    const key = randomUUID();
    const body = JSON.stringify({ points, reason: 'fault suite', metadata: { faultKey: key } });
    for (let attempt = 1; ; attempt += 1) {
      const started = Date.now();
      this.stats.attempts += 1;
      const entryId = await this.attempt(member, key, body);
      this.stats.slowestMs = Math.max(this.stats.slowestMs, Date.now() - started);
      if (entryId) {
        this.stats.successes.push(Date.now());
        if (attempt > 1) this.stats.retried += 1;
        this.confirmed.pointsByMember.set(member, (this.confirmed.pointsByMember.get(member) ?? 0) + points);
        this.confirmed.keys.push(key);
        this.confirmed.entryIds.push(entryId);
        return;
      }
      this.stats.failures.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    }
  }

  /** One attempt: the ledger entry's id on 2xx, else undefined (counted by what went wrong). */
  private async attempt(member: string, key: string, body: string): Promise<string | undefined> {
    try {
      const response = await fetch(`${this.rest}/api/v1/customers/${member}/points/award`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token()}`, 'idempotency-key': key },
        body,
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      const answer = (await response.json().catch(() => undefined)) as { data?: { id?: string } } | undefined;
      this.stats.statuses.set(response.status, (this.stats.statuses.get(response.status) ?? 0) + 1);
      return response.ok ? answer?.data?.id : undefined;
    } catch (error) {
      if (refused(error)) this.stats.refused += 1;
      else this.stats.socketErrors += 1;
      return undefined;
    }
  }
}

function emptyStats(): LoadStats {
  return { attempts: 0, refused: 0, socketErrors: 0, statuses: new Map(), failures: [], successes: [], slowestMs: 0, retried: 0 };
}

/** fetch's error for a refused connection carries ECONNREFUSED in its cause. */
function refused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string; errors?: Array<{ code?: string }> } }).cause;
  return cause?.code === 'ECONNREFUSED' || (cause?.errors ?? []).some((inner) => inner.code === 'ECONNREFUSED');
}
