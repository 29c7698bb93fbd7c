import { Confirmed } from './earn-load';
import { DeliveryCounter } from './delivery-counter';
import { PostgresCluster } from './postgres-cluster';

/** Every event must reach the receiver within this of its creation or of the recovery, whichever is later. */
export const DELIVERY_BOUND_MS = 60_000;

/** Each member's ledger sum of earns (points), straight from the database. */
export async function ledgerSums(cluster: PostgresCluster): Promise<Map<string, number>> {
  const rows = await cluster.query<{ member_id: string; ledger: string }>(`select member_id, sum(amount)::text as ledger from point.point_transaction where action_type = 'EARN' group by member_id`);
  return new Map(rows.map((row) => [row.member_id, Number(row.ledger)]));
}

/**
 * The ledger against what the clients of one stretch were told, straight from the database: each
 * member's balance equals its ledger sum, which grew since `before` by the sum of its 2xx earns; each
 * idempotency key answered 2xx has exactly one ledger row. Returns the problems found (none when exact).
 */
export async function ledgerProblems(cluster: PostgresCluster, confirmed: Confirmed, before: Map<string, number>): Promise<string[]> {
  const problems: string[] = [];
  const balances = await cluster.query<{ member_id: string; balance: string }>(`select member_id, point_amount::text as balance from point.point_balance`);
  const ledger = await ledgerSums(cluster);
  for (const { member_id: member, balance } of balances) {
    if (Number(balance) !== (ledger.get(member) ?? 0)) problems.push(`member ${member}: balance ${balance}, ledger ${ledger.get(member) ?? 0}`);
  }
  for (const [member, points] of confirmed.pointsByMember) {
    const grown = (ledger.get(member) ?? 0) - (before.get(member) ?? 0);
    if (grown !== points) problems.push(`member ${member}: ledger grew by ${grown}, its 2xx earns ${points}`);
  }
  const [keys] = await cluster.query<{ rows: string; keys: string }>(
    `select count(*)::text as rows, count(distinct metadata->>'faultKey')::text as keys from point.point_transaction where metadata->>'faultKey' = any($1)`,
    [confirmed.keys],
  );
  if (Number(keys.rows) !== Number(keys.keys)) problems.push(`${Number(keys.rows) - Number(keys.keys)} idempotency keys with more than one ledger row`);
  if (Number(keys.keys) !== confirmed.keys.length) problems.push(`${confirmed.keys.length} earns answered 2xx, ${keys.keys} of their keys in the ledger`);
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
