import { MikroORM } from '@mikro-orm/core';
import { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { Lease, LeasedDeliveryWorker, nextRetryIn } from '../../../core/events/leased-delivery';
import { Logger } from '../../../core/logger';
import { webhookDeliveryAttempts, webhookDeliveryLag } from '../../../core/metrics';
import { WebhookSettings } from '../settings';
import { SpanKind } from '@opentelemetry/api';
import { inSpan, linksTo } from '../../../core/tracing';
import { AttemptResult, WebhookSender } from './webhook-sender';

/** How long an attempt's outcome is tried again while the database is unavailable (a restart takes seconds). */
const RECORD_FOR_MS = 60_000;
/** A lease outlives the attempt's timeout by this much; then a delivery whose process died is due again. */
const LEASE_MARGIN_MS = 5_000;

/** A delivery claimed for one attempt, with what the attempt sends. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  url: string;
  secret: string;
  body: string;
  token: string;
  /** The `traceparent` of the request that committed the event (null untraced). */
  traceContext: string | null;
}

/**
 * Sends due deliveries, in every process that runs the webhook domain, on the leased-delivery engine.
 * Each round claims, in one statement, due `pending` deliveries of active webhooks with a lease (`for
 * update skip locked` semantics: rows leased by another process are passed over), at most
 * WEBHOOK_CONCURRENCY in flight per webhook across processes, so a slow or dead receiver holds back only
 * its own deliveries. An attempt's result is recorded only while its lease holds (`lease_token`); a
 * delivery whose process died mid-attempt is claimed again once its lease runs out (at-least-once: the
 * receiver dedupes by id). Stopping aborts the attempts in flight: a failed one is released, due again at once.
 */
export class DeliveryWorker {
  private readonly sender: WebhookSender;
  private readonly worker: LeasedDeliveryWorker<ClaimedDelivery, AttemptResult>;

  constructor(orm: MikroORM<PostgreSqlDriver>, settings: WebhookSettings, logger: Logger) {
    const sender = new WebhookSender({ timeoutMs: settings.timeoutMs, allowPrivateTargets: settings.allowPrivateTargets });
    this.sender = sender;
    this.worker = new LeasedDeliveryWorker(
      {
        label: 'webhook deliveries',
        attemptMs: settings.timeoutMs,
        leaseMarginMs: LEASE_MARGIN_MS,
        maxInFlight: Infinity,
        recordForMs: RECORD_FOR_MS,
        claim: async (lease) => {
          const jobs = await claimDueDeliveries(orm.em.fork(), lease, settings.concurrencyPerWebhook);
          return { jobs, claimed: jobs.length };
        },
        // Each attempt a trace of its own (its HTTP request within), linked to the request that committed the event.
        send: (delivery, { stop }) =>
          inSpan('webhook delivery', { root: true, kind: SpanKind.PRODUCER, links: linksTo([delivery.traceContext]), attributes: { 'webhook.id': delivery.webhookId, 'messaging.message.id': delivery.eventId } }, () =>
            sender.send(delivery.url, delivery.secret, delivery.eventId, delivery.body, stop),
          ),
        // The receiver may have taken it: recorded late (while its lease token still holds) rather than sent again.
        record: async (delivery, result, stopped) => {
          const em = orm.em.fork();
          if (stopped && !result.ok) return releaseDelivery(em, delivery);
          const lagSeconds = result.ok
            ? await recordAttempt(em, delivery, result, settings.retrySchedule)
            : await em.transactional((inner) => recordAttempt(inner, delivery, result, settings.retrySchedule));
          webhookDeliveryAttempts.inc({ outcome: result.ok ? 'succeeded' : 'failed' });
          if (lagSeconds !== undefined) webhookDeliveryLag.observe(lagSeconds);
        },
      },
      logger,
    );
  }

  start(): void {
    this.worker.start();
  }

  /** Looks for due deliveries now (after a delivery became due or a slot freed up). */
  wake(): void {
    this.worker.wake();
  }

  async stop(): Promise<void> {
    await this.worker.stop();
    this.sender.close();
  }
}

/** Hands back a delivery whose attempt the stop cut short: due again at once. */
async function releaseDelivery(em: EntityManager, delivery: Pick<ClaimedDelivery, 'id' | 'token'>): Promise<void> {
  await em.execute(`update webhook.webhook_delivery set lease_until = null, lease_token = null where id = ? and lease_token = ?`, [delivery.id, delivery.token]);
}

/**
 * Claims due deliveries for one round: per active webhook, its oldest due `pending` deliveries that no
 * live lease holds, as many as its free slots (`perWebhook` minus its attempts in flight, counted in the
 * database so that the cap holds across processes), rows another claimer holds passed over (`skip
 * locked`); each gets `lease` (its length and this round's token). A webhook another process is
 * claiming for at this moment is left to it (transaction-scoped advisory lock), so that the cap holds.
 */
export function claimDueDeliveries(em: EntityManager, lease: Lease, perWebhook: number): Promise<ClaimedDelivery[]> {
  return em.transactional(async (tx) => {
    // One claimer per webhook at a time, across processes: its in-flight count below is then read after
    // the previous claimer's leases committed (a later statement of this transaction, a later snapshot).
    const owned: Array<{ id: string }> = await tx.execute(
      `select id from webhook.webhook where status = 'active' and pg_try_advisory_xact_lock(hashtext('webhook.claim:' || id))`,
    );
    if (owned.length === 0) return [];
    const rows: any[] = await tx.execute(
      `with picked as (
         select d.id, w.id as webhook_id from webhook.webhook w
         cross join lateral (
           select d.id from webhook.webhook_delivery d
           where d.webhook_id = w.id and d.status = 'pending' and d.next_attempt_at <= now() and (d.lease_until is null or d.lease_until <= now())
           order by d.next_attempt_at, d.id
           limit greatest(0, ? - (select count(*) from webhook.webhook_delivery b
                                  where b.webhook_id = w.id and b.status = 'pending' and b.lease_until is not null and b.lease_until > now()))
           for update of d skip locked
         ) d
         where w.status = 'active' and w.id in (${owned.map(() => '?').join(', ')})
       )
       update webhook.webhook_delivery d set lease_until = now() + make_interval(secs => ?), lease_token = ?
       from picked p join webhook.webhook w on w.id = p.webhook_id, webhook.webhook_event e
       where d.id = p.id and e.id = d.event_id
       returning d.id, d.webhook_id, d.event_id, w.url, w.secret, e.body, e.trace_context`,
      [perWebhook, ...owned.map((row) => row.id), lease.seconds, lease.token],
    );
    return rows.map((row) => ({ id: row.id, webhookId: row.webhook_id, eventId: row.event_id, url: row.url, secret: row.secret, body: row.body, token: lease.token, traceContext: row.trace_context }));
  });
}

/**
 * Records one attempt. A 2xx: `succeeded`, in one statement. A failure (in a transaction, under the
 * webhook's lock: the order every writer of a webhook and its deliveries takes): retried after the next
 * interval of the schedule; after the last, the delivery is `failed`, the webhook `failed` (inactive) and its other pending deliveries
 * `held`. A delivery that is no longer pending (its webhook failed or was switched off meanwhile) keeps
 * its state; one whose lease was lost is left to its new holder. Resolves a success's seconds since the
 * delivery was created (`webhook_delivery_lag_seconds`).
 */
export async function recordAttempt(
  em: EntityManager,
  delivery: Pick<ClaimedDelivery, 'id' | 'webhookId' | 'token'>,
  result: AttemptResult,
  schedule: number[],
): Promise<number | undefined> {
  const outcome = `attempts = attempts + 1, last_status_code = ?, last_error = ?, lease_until = null, lease_token = null, updated_at = now()`;
  const facts = [result.statusCode, result.error];
  if (result.ok) {
    // A success changes only its own row, whatever its webhook's state: no lock on the webhook.
    const [succeeded] = await em.execute(
      `update webhook.webhook_delivery set ${outcome}, status = 'succeeded', delivered_at = now(), next_attempt_at = null where id = ? and lease_token = ?
       returning extract(epoch from delivered_at - created_at) as lag_seconds`,
      [...facts, delivery.id, delivery.token],
    );
    return succeeded ? Number(succeeded.lag_seconds) : undefined;
  }
  const [webhook] = await em.execute(`select status from webhook.webhook where id = ? for update`, [delivery.webhookId]);
  const [row] = await em.execute(`select status, retries_used from webhook.webhook_delivery where id = ? and lease_token = ? for update`, [delivery.id, delivery.token]);
  if (!webhook || !row) return;
  if (row.status !== 'pending') {
    await em.execute(`update webhook.webhook_delivery set ${outcome} where id = ?`, [...facts, delivery.id]);
    return;
  }
  if (webhook.status !== 'active') {
    const status = webhook.status === 'failed' ? 'held' : 'failed';
    await em.execute(`update webhook.webhook_delivery set ${outcome}, status = ?, next_attempt_at = null where id = ?`, [...facts, status, delivery.id]);
    return;
  }
  const retryIn = nextRetryIn(schedule, row.retries_used);
  if (retryIn !== undefined) {
    await em.execute(
      `update webhook.webhook_delivery set ${outcome}, retries_used = retries_used + 1, next_attempt_at = now() + make_interval(secs => ?) where id = ?`,
      [...facts, retryIn, delivery.id],
    );
    return;
  }
  await em.execute(`update webhook.webhook_delivery set ${outcome}, status = 'failed', next_attempt_at = null where id = ?`, [...facts, delivery.id]);
  await em.execute(`update webhook.webhook set status = 'failed', failed_at = now(), updated_at = now() where id = ?`, [delivery.webhookId]);
  await em.execute(`update webhook.webhook_delivery set status = 'held', next_attempt_at = null, updated_at = now() where webhook_id = ? and status = 'pending'`, [delivery.webhookId]);
}

/**
 * Retention: held deliveries waiting longer than the retention (their webhook left failed) expire as
 * `failed`; finished deliveries (succeeded, failed) older than the retention are deleted, and the event
 * bodies no delivery needs any more.
 */
export async function pruneDeliveries(em: EntityManager, retentionDays: number): Promise<{ expired: number; deliveries: number; events: number }> {
  const expired = await em.execute(
    `update webhook.webhook_delivery set status = 'failed', last_error = 'expired: held longer than the retention', updated_at = now()
     where status = 'held' and created_at < now() - make_interval(days => ?) returning id`,
    [retentionDays],
  );
  const deliveries = await em.execute(
    `delete from webhook.webhook_delivery where status in ('succeeded', 'failed') and updated_at < now() - make_interval(days => ?) returning id`,
    [retentionDays],
  );
  const events = await em.execute(
    `delete from webhook.webhook_event e where e.created_at < now() - make_interval(days => ?)
       and not exists (select 1 from webhook.webhook_delivery d where d.event_id = e.id) returning id`,
    [retentionDays],
  );
  return { expired: expired.length, deliveries: deliveries.length, events: events.length };
}
