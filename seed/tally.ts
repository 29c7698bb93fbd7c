export type Outcome = 'created' | 'present' | 'refused';

/** What a run did to each kind of demo item: created, found already there, or refused by the platform's rules. */
export class Tally {
  private readonly counts = new Map<string, Record<Outcome, number>>();

  note(kind: string, outcome: Outcome, times = 1): void {
    const counts = this.counts.get(kind) ?? { created: 0, present: 0, refused: 0 };
    counts[outcome] += times;
    this.counts.set(kind, counts);
  }

  /** The counts of one kind (zeros when the run met none). */
  of(kind: string): Record<Outcome, number> {
    return { created: 0, present: 0, refused: 0, ...this.counts.get(kind) };
  }

  /** Every kind with its counts, in the order the run met them. */
  entries(): Array<[string, Record<Outcome, number>]> {
    return [...this.counts.entries()];
  }

  /** One line per kind: `members  20 created, 0 already there`. */
  lines(): string[] {
    const width = Math.max(...[...this.counts.keys()].map((kind) => kind.length));
    return this.entries().map(([kind, { created, present, refused }]) => {
      const refusals = refused ? `, ${refused} refused` : '';
      return `  ${kind.padEnd(width)}  ${created} created, ${present} already there${refusals}`;
    });
  }
}
