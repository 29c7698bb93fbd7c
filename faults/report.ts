import { DeliveryReport } from './checks';
import { LoadStats } from './earn-load';

/** What one fault did, as measured. */
export interface FaultOutcome {
  fault: string;
  refusalsAllowed: boolean;
  stats: LoadStats;
  /** When the fault ended (ms). */
  recoveredAt: number;
  /** Every earn of the stretch answered 2xx in the end. */
  drained: boolean;
  ledgerProblems: string[];
  deliveries: DeliveryReport;
  badSignatures: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The time from the end of the fault to the first 2xx after the last failed attempt ('-' when none failed). */
function backAfter(outcome: FaultOutcome): string {
  const { failures, successes } = outcome.stats;
  if (failures.length === 0) return '-';
  const lastFailure = failures.reduce((a, b) => Math.max(a, b));
  const firstSuccess = successes.filter((at) => at > lastFailure).reduce((a, b) => Math.min(a, b), Infinity);
  return firstSuccess === Infinity ? 'never' : seconds(Math.max(0, firstSuccess - outcome.recoveredAt));
}

/** The checks a fault failed (none: it passed). Duplicates are reported, not failed: delivery is at least once. */
export function failedChecks(outcome: FaultOutcome): string[] {
  const failed: string[] = [];
  const unexpected = [...outcome.stats.statuses].filter(([status]) => status >= 300 && status !== 503);
  if (outcome.stats.refused > 0 && !outcome.refusalsAllowed) failed.push('port refused');
  if (unexpected.length > 0) failed.push(`answered ${unexpected.map(([status, count]) => `${count}×${status}`).join(', ')}`);
  if (!outcome.drained) failed.push('earns never answered 2xx');
  if (outcome.ledgerProblems.length > 0) failed.push('ledger');
  if (outcome.deliveries.missing > 0) failed.push(`${outcome.deliveries.missing} events undelivered`);
  if (outcome.deliveries.late > 0) failed.push(`${outcome.deliveries.late} events late`);
  if (outcome.badSignatures > 0) failed.push(`${outcome.badSignatures} bad signatures`);
  return failed;
}

/** The issue's table: one row per fault. */
export function formatTable(outcomes: FaultOutcome[]): string {
  const header = ['fault', 'earns', 'refused', 'resets', '5xx (500 / 503)', 'back after', 'slowest', 'events delayed max', 'duplicates', 'verdict'];
  const rows = outcomes.map((outcome) => {
    const { stats, deliveries } = outcome;
    const count = (status: number) => stats.statuses.get(status) ?? 0;
    const failed = failedChecks(outcome);
    return [
      outcome.fault,
      `${stats.successes.length} (${stats.retried} retried)`,
      String(stats.refused),
      String(stats.socketErrors),
      `${count(500)} / ${count(503)}`,
      backAfter(outcome),
      seconds(stats.slowestMs),
      `${seconds(deliveries.maxDelayMs)} (${deliveries.events} events)`,
      String(deliveries.duplicates),
      failed.length === 0 ? 'pass' : `FAIL: ${failed.join('; ')}`,
    ];
  });
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
