import { randomUUID } from 'node:crypto';
import { Pool, PoolClient } from 'pg';
import { Lease, LeasedDeliveryWorker, nextRetryIn } from '../../../core/events/leased-delivery';
import { Logger } from '../../../core/logger';
import { notificationSends } from '../../../core/metrics';
import { inHeldTransaction } from '../../../core/db/held-client';
import { logFailure } from '../../../core/unavailable';
import { NOTIFICATION, NotificationCreated, NotificationDeliveryOutcome } from '../contract';
import { V1Channel } from '../entities/v1-notification';
import { Channel, ChannelFailure, OutgoingMessage, untilAborted } from './channels/channel';
import { ClickTracking } from './click-tracking';
import { decideDelivery, StoredPreferences } from './delivery-rules';
import { NotificationSupergraph, Recipient } from './notification-supergraph';
import { SpanKind } from '@opentelemetry/api';
import { inSpan, linksTo } from '../../../core/tracing';
import { sentEvent } from './v1-notification.service';

/** Recipients read per expansion step (the cluster's largest page). */
const EXPAND_PAGE = 5000;
/** External deliveries attempted side by side per process. */
const EXTERNAL_CONCURRENCY = 20;
/**
 * A lease outlasts its attempt's deadline (NOTIFY_CHANNEL_TIMEOUT_MS) by this much: the recipients'
 * lookup before the attempts start (at most half of it, else the rows are handed back) and the
 * settling transaction after.
 */
const LEASE_MARGIN_MS = 10_000;
const RANK: Record<string, number> = { high: 0, normal: 1, low: 2 };

export interface SenderOptions {
  batchSize: number;
  /** Seconds before each retry of a temporary failure; its length is the number of retries. */
  retrySchedule: number[];
  channelTimeoutMs: number;
}

interface DueRow {
  id: string;
  notification_id: string;
  customer_id: string;
  channel: V1Channel;
  attempts: number;
  title: string;
  body: string;
  image: string | null;
  action_url: string | null;
  category: string | null;
  priority: string;
  trace_context: string | null;
  channels: StoredPreferences['channels'];
  categories: StoredPreferences['categories'];
  quiet_hours: StoredPreferences['quietHours'];
}

/** An external delivery leased for one attempt: its row, its recipient (none: the customer is gone) and its lease token. */
interface ExternalDelivery {
  id: string;
  row: DueRow;
  recipient: Recipient | undefined;
  token: string;
}

interface EventRow {
  type: string;
  payload: object;
  /**
   * The member for events of its stream (`notification.created`); null for delivery outcomes, which need
   * no order per customer: no per-aggregate lock in the outbox trigger, no stream announcement.
   */
  aggregateId: string | null;
  /** When it happened, as its payload says: the outbox row's `occurred_at` (a webhook's `created_at`) is the same instant. */
  occurredAt: string | Date;
}

/**
 * Sends version-1 notifications, in every process that runs the notification domain: starts scheduled
 * ones when due, expands recipients into delivery rows (unique per notification, customer and channel)
 * page by page, and delivers due rows. In-app deliveries are written in batches, each in one
 * transaction with its in-app notifications, events and counters: a crash loses or repeats nothing.
 * External deliveries are leased (`sending`) before the provider is called and settled after; a lease
 * that runs out (the process died mid-call) fails the delivery as "outcome unknown" rather than send
 * it again. External attempts run beside the rounds (up to EXTERNAL_CONCURRENCY per process), each
 * bounded by NOTIFY_CHANNEL_TIMEOUT_MS, so a hanging provider holds back neither in-app batches nor
 * scheduled starts. Rows are claimed with `for update skip locked`, so processes share the work. The
 * rounds, leases and attempts run on the leased-delivery engine (core/events/leased-delivery.ts).
 */
export class V1NotificationSender {
  private readonly pool: Pool;
  /** The rounds and the external attempts (a failure is the outcome; none: delivered). */
  private readonly worker: LeasedDeliveryWorker<ExternalDelivery, ChannelFailure | undefined>;

  constructor(
    databaseUrl: string,
    private readonly supergraph: NotificationSupergraph,
    private readonly channels: Record<Exclude<V1Channel, 'in_app'>, Channel>,
    private readonly tracking: ClickTracking,
    private readonly options: SenderOptions,
    logger: Logger,
  ) {
    this.pool = new Pool({ connectionString: databaseUrl, max: 4, idleTimeoutMillis: 10_000 });
    this.pool.on('error', (error) => logFailure(logger, error, 'notification sender connection failed'));
    this.worker = new LeasedDeliveryWorker(
      {
        label: 'notification sending',
        attemptMs: options.channelTimeoutMs,
        leaseMarginMs: LEASE_MARGIN_MS,
        maxInFlight: EXTERNAL_CONCURRENCY,
        // Not recorded: its lease runs out and it fails as interrupted.
        recordForMs: 0,
        otherSteps: [() => this.startDue(), () => this.expandOne(), () => this.deliverInApp(), () => this.completeDone()],
        claim: (lease, free) => this.leaseExternal(lease, free),
        send: (delivery, { deadline }) => this.attempt(delivery, deadline),
        record: (delivery, failure) => this.settle(delivery, failure),
        recover: () => this.recoverLeases(),
      },
      logger,
    );
  }

  start(): void {
    this.worker.start();
  }

  /** Work was just committed: look now rather than at the next round. */
  readonly kick = (): void => this.worker.wake();

  /** Stops the rounds, lets the attempts under way end (each within its deadline) and record their outcome. */
  async stop(): Promise<void> {
    await this.worker.stop();
    await this.pool.end();
  }

  private inTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return inHeldTransaction(this.pool, work);
  }

  /** scheduled → sending once `scheduled_at` passed, with `notification.sent`. */
  private startDue(): Promise<number> {
    return this.inTransaction(async (client) => {
      const { rows } = await client.query<{ id: string; title: string; channel: V1Channel; total_recipients: number; sent_at: Date }>(
        `update notification.v1_notification n set status = 'sending', sent_at = now(), updated_at = now()
          where n.id in (select id from notification.v1_notification where status = 'scheduled' and scheduled_at <= now()
                          order by scheduled_at limit 50 for update skip locked)
          returning n.id, n.title, n.channel, n.total_recipients, n.sent_at`,
      );
      await insertEvents(
        client,
        rows.map((row) => ({
          type: NOTIFICATION.events.sent,
          payload: sentEvent({ id: row.id, title: row.title, channel: row.channel, totalRecipients: row.total_recipients }, row.sent_at),
          aggregateId: row.id,
          occurredAt: row.sent_at,
        })),
      );
      return rows.length;
    });
  }

  /**
   * One page of recipients of one sending notification becomes delivery rows (a repeat inserts nothing);
   * the highest priority first, so a high-priority send started behind a large low-priority one is not
   * kept waiting for that one's expansion.
   */
  private expandOne(): Promise<number> {
    return this.inTransaction(async (client) => {
      const { rows } = await client.query<{ id: string; segment_id: string | null; customer_ids: string[] | null; expand_cursor: string | null; channel: string; priority: string }>(
        `select id, segment_id, customer_ids, expand_cursor, channel, priority from notification.v1_notification
          where status = 'sending' and not expanded
          order by case priority when 'high' then 0 when 'normal' then 1 else 2 end, sent_at, id limit 1 for update skip locked`,
      );
      const [notification] = rows;
      if (!notification) return 0;
      let ids: string[];
      let cursor: string | null;
      let done: boolean;
      let note: string | null = null;
      if (notification.customer_ids) {
        const offset = Number(notification.expand_cursor ?? 0);
        ids = notification.customer_ids.slice(offset, offset + EXPAND_PAGE);
        cursor = String(offset + ids.length);
        done = offset + ids.length >= notification.customer_ids.length;
      } else {
        const page = await this.supergraph.segmentMemberIds(notification.segment_id!, notification.expand_cursor, EXPAND_PAGE);
        if (page === null) note = 'the segment no longer existed when sending reached it';
        ids = page ?? [];
        cursor = ids.length > 0 ? ids[ids.length - 1] : notification.expand_cursor;
        done = ids.length < EXPAND_PAGE;
      }
      if (ids.length > 0) {
        await client.query(
          `insert into notification.delivery (notification_id, customer_id, channel, rank)
           select $1, unnest($2::uuid[]), $3, $4 on conflict do nothing`,
          [notification.id, ids, notification.channel, RANK[notification.priority] ?? 1],
        );
      }
      await client.query(
        `update notification.v1_notification set expand_cursor = $2, expanded = $3, note = coalesce($4, note), updated_at = now(),
            total_recipients = case when $3 then (select count(*) from notification.delivery where notification_id = $1) else total_recipients end
          where id = $1`,
        [notification.id, cursor, done, note],
      );
      return 1;
    });
  }

  /**
   * Claims up to `limit` due rows (in_app, or every other channel), high priority first, preferences
   * joined. No ORDER BY over the due rows: a sort would read every pending row of a large send for each
   * batch; within one priority any due row will do. The channel test is written out (not a parameter) so
   * that each claim uses its own partial index (delivery_due_in_app_idx, delivery_due_external_idx):
   * external claims never walk the pending rows of a large in-app send.
   */
  private async claimDue(client: PoolClient, inApp: boolean, limit: number): Promise<DueRow[]> {
    const claimed: DueRow[] = [];
    for (const rank of [0, 1, 2]) {
      if (claimed.length >= limit) break;
      const { rows } = await client.query<DueRow>(
        `select d.id, d.notification_id, d.customer_id, d.channel, d.attempts, n.title, n.body, n.image, n.action_url, n.category, n.priority, n.trace_context,
                p.channels, p.categories, p.quiet_hours
           from (select id from notification.delivery
                  where status = 'pending' and ${inApp ? "channel = 'in_app'" : "channel <> 'in_app'"} and rank = $2 and next_attempt_at <= now()
                  limit $1 for update skip locked) due
           join notification.delivery d on d.id = due.id
           join notification.v1_notification n on n.id = d.notification_id
           left join notification.preference p on p.customer_id = d.customer_id`,
        [limit - claimed.length, rank],
      );
      claimed.push(...rows);
    }
    return claimed;
  }

  /**
   * Skips (preferences) and holds (quiet hours) what must not go now; returns the rest. Skips are
   * counted on their notifications.
   */
  private async sortOut(client: PoolClient, rows: DueRow[]): Promise<DueRow[]> {
    const now = new Date();
    const send: DueRow[] = [];
    const skipped: Array<{ id: string; reason: string; notificationId: string }> = [];
    const held: Array<{ id: string; until: Date; zone: string }> = [];
    for (const row of rows) {
      const decision = decideDelivery(row.channel, row.category, { channels: row.channels, categories: row.categories, quietHours: row.quiet_hours }, now);
      if (decision.kind === 'send') send.push(row);
      else if (decision.kind === 'skip') skipped.push({ id: row.id, reason: decision.reason, notificationId: row.notification_id });
      else held.push({ id: row.id, until: decision.until, zone: decision.timeZone });
    }
    if (skipped.length > 0) {
      await client.query(
        `update notification.delivery d set status = 'skipped', skip_reason = t.reason, updated_at = now()
           from unnest($1::uuid[], $2::text[]) as t(id, reason) where d.id = t.id`,
        [skipped.map((s) => s.id), skipped.map((s) => s.reason)],
      );
      await addCounts(client, 'skipped', skipped.map((s) => s.notificationId));
    }
    if (held.length > 0) {
      await client.query(
        `update notification.delivery d set next_attempt_at = t.until, quiet_until = t.until, quiet_time_zone = t.zone, updated_at = now()
           from unnest($1::uuid[], $2::timestamptz[], $3::text[]) as t(id, until, zone) where d.id = t.id`,
        [held.map((h) => h.id), held.map((h) => h.until.toISOString()), held.map((h) => h.zone)],
      );
    }
    return send;
  }

  /** One batch of in-app deliveries: in-app notifications, their events and the counters in one transaction. */
  private async deliverInApp(): Promise<number> {
    let delivered = 0;
    const claimed = await this.inTransaction(async (client) => {
      delivered = 0;
      const rows = await this.claimDue(client, true, this.options.batchSize);
      if (rows.length === 0) return 0;
      const send = await this.sortOut(client, rows);
      delivered = send.length;
      if (send.length > 0) {
        // One trace for the batch, linked to the requests that sent its notifications.
        const links = linksTo([...new Set(send.map((row) => row.trace_context))]);
        await inSpan('notification send in_app', { root: true, kind: SpanKind.PRODUCER, links, attributes: { 'messaging.batch.message_count': send.length } }, () => this.writeInApp(client, send));
      }
      return rows.length;
    });
    // Counted once committed: a transaction tried again counts once.
    if (delivered > 0) notificationSends.inc({ channel: 'in_app', outcome: 'delivered' }, delivered);
    return claimed;
  }

  /** Writes in-app copies of due rows, marks them delivered and counts them, and announces each (created, delivered). */
  private async writeInApp(client: PoolClient, send: DueRow[]): Promise<void> {
    const now = new Date().toISOString();
    const written = send.map((row) => {
      const metadata = { notificationId: row.notification_id, actionUrl: row.action_url ? this.tracking.link(row.id) : null, image: row.image };
      return { row, inAppId: randomUUID(), type: row.category === 'promotions' ? 'promotion' : 'news', metadata };
    });
    await client.query(
      `insert into notification.in_app_notification (id, member_id, title_en, content_en, format, type, metadata, created_at, updated_at)
       select t.id, t.member, t.title, t.content, 'raw', t.type, t.metadata::jsonb, $7, $7
         from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[]) as t(id, member, title, content, type, metadata)`,
      [
        written.map((w) => w.inAppId),
        written.map((w) => w.row.customer_id),
        written.map((w) => w.row.title),
        written.map((w) => w.row.body),
        written.map((w) => w.type),
        written.map((w) => JSON.stringify(w.metadata)),
        now,
      ],
    );
    await client.query(
      `update notification.delivery d set status = 'delivered', in_app_id = t.in_app, delivered_at = $3, attempts = attempts + 1, updated_at = $3
         from unnest($1::uuid[], $2::uuid[]) as t(id, in_app) where d.id = t.id`,
      [written.map((w) => w.row.id), written.map((w) => w.inAppId), now],
    );
    await addCounts(client, 'delivered', written.map((w) => w.row.notification_id));
    const events: EventRow[] = [];
    for (const { row, inAppId, type, metadata } of written) {
      const created: NotificationCreated = {
        notificationId: inAppId,
        memberId: row.customer_id,
        type,
        pointSubtype: null,
        tierSubtype: null,
        format: 'raw',
        title_en: row.title,
        title_th: null,
        title_cn: null,
        content_en: row.body,
        content_th: null,
        content_cn: null,
        metadata,
        createdAt: now,
      };
      events.push({ type: NOTIFICATION.events.created, payload: created, aggregateId: row.customer_id, occurredAt: now });
      events.push({ type: NOTIFICATION.events.delivered, payload: outcome(row, null, now), aggregateId: null, occurredAt: now });
    }
    await insertEvents(client, events);
  }

  /**
   * Leases due external deliveries (`free` at most: this process's free attempt slots) as `sending`,
   * skips and holds what must not go now, and looks up the recipients of the rest.
   */
  private async leaseExternal(lease: Lease, free: number): Promise<{ jobs: ExternalDelivery[]; claimed: number }> {
    const claimedAt = Date.now();
    const { claimed, send } = await this.inTransaction(async (client) => {
      const rows = await this.claimDue(client, false, free);
      const send = rows.length > 0 ? await this.sortOut(client, rows) : [];
      if (send.length > 0) {
        await client.query(
          `update notification.delivery set status = 'sending', attempts = attempts + 1, lease_token = $2,
                  lease_until = now() + make_interval(secs => $3), updated_at = now()
            where id = any($1::uuid[])`,
          [send.map((row) => row.id), lease.token, lease.seconds],
        );
      }
      return { claimed: rows.length, send };
    });
    if (send.length === 0) return { jobs: [], claimed };
    let recipients: Map<string, Recipient>;
    try {
      recipients = await this.supergraph.recipients([...new Set(send.map((row) => row.customer_id))]);
      // The lease must still cover a whole attempt and its settling.
      if (Date.now() - claimedAt > LEASE_MARGIN_MS / 2) throw new Error('the recipients lookup took too long for the lease');
    } catch (error) {
      // Nothing was sent: hand the rows back for the next round.
      await this.pool.query(
        `update notification.delivery set status = 'pending', attempts = attempts - 1, lease_token = null, lease_until = null, next_attempt_at = now() + interval '5 seconds'
          where id = any($1::uuid[]) and lease_token = $2`,
        [send.map((row) => row.id), lease.token],
      );
      throw error;
    }
    const jobs = send.map((row) => ({ id: row.id, row, recipient: recipients.get(row.customer_id.toLowerCase()), token: lease.token }));
    return { jobs, claimed };
  }

  /**
   * One call of a channel, bounded by `deadline` (NOTIFY_CHANNEL_TIMEOUT_MS): its failure, none when
   * delivered (never rejects). A trace of its own, linked to the request that sent the notification.
   */
  private attempt(delivery: ExternalDelivery, deadline: AbortSignal): Promise<ChannelFailure | undefined> {
    const { row } = delivery;
    const links = linksTo([row.trace_context]);
    return inSpan(`notification send ${row.channel}`, { root: true, kind: SpanKind.PRODUCER, links, attributes: { 'notification.id': row.notification_id } }, () => this.callChannel(delivery, deadline));
  }

  private async callChannel({ row, recipient }: ExternalDelivery, deadline: AbortSignal): Promise<ChannelFailure | undefined> {
    const message: OutgoingMessage = {
      deliveryId: row.id,
      notificationId: row.notification_id,
      title: row.title,
      body: row.body,
      image: row.image,
      actionUrl: row.action_url ? this.tracking.link(row.id) : null,
      priority: row.priority,
    };
    try {
      if (!recipient) throw new ChannelFailure('the customer no longer exists', false);
      await untilAborted(this.channels[row.channel as Exclude<V1Channel, 'in_app'>].send(recipient, message, deadline), deadline);
      return undefined;
    } catch (error) {
      if (deadline.aborted) return new ChannelFailure(`no answer within ${this.options.channelTimeoutMs} ms: the outcome is unknown, so it is not sent again`, false);
      return error instanceof ChannelFailure ? error : new ChannelFailure(String((error as Error)?.message ?? error).slice(0, 200), false);
    }
  }

  /** Records an attempt's outcome while its lease holds: delivered, retried later, or failed. */
  private async settle({ row, token: leaseToken }: ExternalDelivery, failure: ChannelFailure | undefined): Promise<void> {
    const settled = await this.inTransaction(async (client): Promise<'retried' | 'delivered' | 'failed' | undefined> => {
      // The attempt was counted when it was leased: retries used so far are the attempts before it.
      const retryIn = failure?.temporary ? nextRetryIn(this.options.retrySchedule, row.attempts) : undefined;
      if (retryIn !== undefined) {
        const { rowCount: retried } = await client.query(
          `update notification.delivery set status = 'pending', next_attempt_at = now() + make_interval(secs => $3), last_error = $4,
                  lease_token = null, lease_until = null, updated_at = now()
            where id = $1 and status = 'sending' and lease_token = $2`,
          [row.id, leaseToken, retryIn, failure!.message],
        );
        return retried ? 'retried' : undefined;
      }
      const status = failure ? 'failed' : 'delivered';
      const { rowCount } = await client.query(
        `update notification.delivery set status = $3, last_error = $4, delivered_at = case when $3 = 'delivered' then now() end,
                lease_token = null, lease_until = null, updated_at = now()
          where id = $1 and status = 'sending' and lease_token = $2`,
        [row.id, leaseToken, status, failure?.message ?? null],
      );
      if (!rowCount) return undefined;
      await addCounts(client, status, [row.notification_id]);
      const type = failure ? NOTIFICATION.events.failed : NOTIFICATION.events.delivered;
      const at = new Date().toISOString();
      await insertEvents(client, [{ type, payload: outcome(row, failure?.message ?? null, at), aggregateId: null, occurredAt: at }]);
      return status;
    });
    if (settled) notificationSends.inc({ channel: row.channel, outcome: settled });
  }

  /** Deliveries whose lease ran out mid-call (the process died): failed, never sent again. */
  private recoverLeases(): Promise<number> {
    return this.inTransaction(async (client) => {
      const { rows } = await client.query<{ id: string; notification_id: string; customer_id: string; channel: V1Channel }>(
        `update notification.delivery set status = 'failed', lease_token = null, lease_until = null, updated_at = now(),
                last_error = 'interrupted while sending (the sending process stopped): the outcome is unknown, so it is not sent again'
          where id in (select id from notification.delivery where status = 'sending' and lease_until < now() limit 500 for update skip locked)
          returning id, notification_id, customer_id, channel`,
      );
      if (rows.length === 0) return 0;
      await addCounts(client, 'failed', rows.map((row) => row.notification_id));
      const now = new Date().toISOString();
      await insertEvents(client, rows.map((row) => ({ type: NOTIFICATION.events.failed, payload: outcome(row, 'interrupted while sending', now), aggregateId: null, occurredAt: now })));
      return rows.length;
    });
  }

  /** sending → completed once every recipient is expanded and settled. */
  private async completeDone(): Promise<number> {
    const { rowCount } = await this.pool.query(
      `update notification.v1_notification n set status = 'completed', completed_at = now(), updated_at = now()
        where n.status = 'sending' and n.expanded
          and not exists (select 1 from notification.delivery d where d.notification_id = n.id and d.status in ('pending', 'sending'))`,
    );
    return rowCount ?? 0;
  }
}

const outcome = (row: { notification_id: string; customer_id: string; channel: string }, error: string | null, at: string): NotificationDeliveryOutcome => ({
  notificationId: row.notification_id,
  customerId: row.customer_id,
  channel: row.channel,
  error,
  occurredAt: at,
});

/** Adds one to `counter` of each notification named (once per mention). */
async function addCounts(client: PoolClient, counter: 'delivered' | 'failed' | 'skipped', notificationIds: string[]): Promise<void> {
  const counts = new Map<string, number>();
  for (const id of notificationIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  await client.query(
    `update notification.v1_notification n set ${counter} = ${counter} + t.count, updated_at = now()
       from unnest($1::uuid[], $2::int[]) as t(id, count) where n.id = t.id`,
    [[...counts.keys()], [...counts.values()]],
  );
}

/** Writes events to the domain's outbox in the caller's transaction (the trigger orders each aggregate's). */
async function insertEvents(client: PoolClient, events: EventRow[]): Promise<void> {
  if (events.length === 0) return;
  await client.query(
    `insert into notification.outbox_event (id, type, payload, occurred_at, aggregate_id)
     select gen_random_uuid(), t.type, t.payload::jsonb, t.at, t.aggregate
       from unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) as t(type, payload, aggregate, at)`,
    [events.map((e) => e.type), events.map((e) => JSON.stringify(e.payload)), events.map((e) => e.aggregateId), events.map((e) => new Date(e.occurredAt).toISOString())],
  );
}
