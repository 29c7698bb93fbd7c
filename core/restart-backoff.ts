/**
 * The pause before a worker slot's next fork: 1 s after its first death, doubling with each death that
 * follows soon, at most 30 s; a worker that lived a minute starts the count again. A database outage
 * that kills workers thus never becomes a tight loop of forks (the new ones wait for the database).
 */
export class RestartBackoff {
  static readonly FIRST_MS = 1_000;
  static readonly LONGEST_MS = 30_000;
  static readonly HEALTHY_AFTER_MS = 60_000;
  private pauseMs = RestartBackoff.FIRST_MS;

  /** The pause before forking again after a worker that lived `livedMs`. */
  next(livedMs: number): number {
    if (livedMs >= RestartBackoff.HEALTHY_AFTER_MS) this.pauseMs = RestartBackoff.FIRST_MS;
    const pause = this.pauseMs;
    this.pauseMs = Math.min(pause * 2, RestartBackoff.LONGEST_MS);
    return pause;
  }
}
