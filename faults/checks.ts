import { Confirmed } from './earn-load';
import { DeliveryCounter } from './delivery-counter';
import { PostgresCluster } from './postgres-cluster';

/** Every event must reach the receiver within this of its creation or of the recovery, whichever is later. */
export const DELIVERY_BOUND_MS = 60_000;

/**
 * The ledger against what the clients were told, straight from the database: each member's balance
 * equals its ledger sum equals the sum of its 2xx earns; each idempotency key has exactly one ledger row.
 * Returns the problems found (none when exact).
 */
export async function ledgerProblems(cluster: PostgresCluster, confirmed: Confirmed): Promise<string[]> {
  const problems: string[] = [];
  const rows = await cluster.query<{ member_id: string; balance: string; ledger: string }>(
    `select b.member_id, b.point_amount::text as balance, coalesce(sum(t.amount), 0)::text as ledger
       from point.point_balance b left join point.point_transaction t on t.member_id = b.member_id and t.action_type = 'EARN'
      group by b.member_id, b.point_amount`,
  );
  const byMember = new Map(rows.map((row) => [row.member_id, row]));
  for (const [member, points] of confirmed.pointsByMember) {
    const row = byMember.get(member);
    if (!row || Number(row.balance) !== points || Number(row.ledger) !== points) {
      problems.push(`member ${member}: balance ${row?.balance ?? 'none'}, ledger ${row?.ledger ?? 'none'}, 2xx earns ${points}`);
    }
  }
  const [keys] = await cluster.query<{ rows: string; keys: string }>(
    `select count(*)::text as rows, count(distinct metadata->>'faultKey')::text as keys from point.point_transaction where metadata ? 'faultKey'`,
  );
  if (Number(keys.rows) !== Number(keys.keys)) problems.push(`${Number(keys.rows) - Number(keys.keys)} idempotency keys with more than one ledger row`);
  if (Number(keys.keys) !== confirmed.entryIds.length) problems.push(`${keys.keys} keys in the ledger, ${confirmed.entryIds.length} earns answered 2xx`);
  return problems;
}

/** The points.earned events of these ledger entries: id and when it was written (ms). */
export async function eventsOf(cluster: PostgresCluster, entryIds: string[]): Promise<Array<{ id: string; at: number }>> {
  const rows = await cluster.query<{ id: string; at: Date }>(
    `select id, occurred_at as at from point.outbox_event where type = 'points.earned' and payload->>'transactionId' = any($1)`,
    [entryIds],
  );
  return rows.map((row) => ({ id: row.id, at: row.at.getTime() }));
}

/** How the events of one fault reached the receiver. */
export interface DeliveryReport {
  events: number;
  /** Events with no delivery by their deadline, or none at all. */
  late: number;
  missing: number;
  /** The longest time from an event's creation to its first delivery (ms; for undelivered ones, until now). */
  maxDelayMs: number;
  /** Events delivered more than once. */
  duplicates: number;
}

/**
 * Waits until every event has arrived or the last deadline (creation or `recoveredAt`, whichever is later,
 * plus DELIVERY_BOUND_MS) has passed, then reports.
 */
export async function awaitDeliveries(receiver: DeliveryCounter, events: Array<{ id: string; at: number }>, recoveredAt: number): Promise<DeliveryReport> {
  const deadlineOf = (event: { at: number }) => Math.max(event.at, recoveredAt) + DELIVERY_BOUND_MS;
  const lastDeadline = events.map(deadlineOf).reduce((a, b) => Math.max(a, b), Date.now());
  while (events.some((event) => !receiver.arrivals.has(event.id)) && Date.now() < lastDeadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const now = Date.now();
  const first = (event: { id: string }) => receiver.arrivals.get(event.id)?.[0];
  return {
    events: events.length,
    late: events.filter((event) => (first(event) ?? now) > deadlineOf(event)).length,
    missing: events.filter((event) => first(event) === undefined).length,
    maxDelayMs: events.map((event) => (first(event) ?? now) - event.at).reduce((a, b) => Math.max(a, b), 0),
    duplicates: events.filter((event) => (receiver.arrivals.get(event.id)?.length ?? 0) > 1).length,
  };
}
