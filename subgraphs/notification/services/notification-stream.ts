import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { AppError, validationError } from '../../../core/errors';
import { Locale, projectLocale } from '../../../core/i18n';
import { Logger } from '../../../core/logger';
import { NOTIFICATION, NotificationCreated, NotificationRead } from '../contract';
import { InAppNotification, NOTIFICATION_TEXTS } from '../entities/in-app-notification';
import { NotificationStreamEvent, NotificationStreamEventType } from '../types/notification-stream.types';

/** The channel the outbox trigger announces each notification event on (migration 20261129). */
export const STREAM_CHANNEL = 'notification_stream';
/** At most this many missed events are replayed to a reconnecting client (the oldest first); the list serves older ones. */
export const REPLAY_LIMIT = 500;
/** Events waiting for a slow client; past it the stream ends and the client resumes with its last event id. */
const MAX_QUEUED = 1000;
const STREAMED_TYPES = [NOTIFICATION.events.created, NOTIFICATION.events.read];

export interface StreamLimits {
  /** Open streams of one member in this process. */
  perMember: number;
  /** Open streams in this process. */
  total: number;
}

/** A notification event as the outbox holds it. */
interface OutboxRow {
  sequence: string;
  type: string;
  aggregate_id: string;
  payload: Record<string, unknown>;
}

/**
 * The members' live notification streams of this process. One PostgreSQL connection LISTENs on
 * `notification_stream` (the outbox trigger NOTIFYs at commit, whichever process wrote); an
 * announcement for a member with open streams here is read from the outbox once and fanned out in
 * memory. A stream opened with a last event id first replays the member's events after it, from the
 * outbox. Open streams are bounded per member and in total; losing the connection ends every stream
 * (their clients resume with their last event id).
 */
export class NotificationStream {
  private readonly subscriptions = new Map<string, Set<StreamSubscription>>();
  private open = 0;
  private listening?: Promise<Client>;
  private pending: string[] = [];
  private draining = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly orm: MikroORM<PostgreSqlDriver>,
    private readonly limits: StreamLimits,
    private readonly logger: Logger,
  ) {}

  /** Opens a member's stream: `connected` once listening, then the events after `lastEventId`, then live ones. */
  async subscribe(memberId: string, options: { locale?: Locale; lastEventId?: string | null }): Promise<AsyncIterableIterator<NotificationStreamEvent>> {
    const { lastEventId, locale } = options;
    if (lastEventId != null && !/^\d{1,18}$/.test(lastEventId)) throw validationError([{ field: 'lastEventId', message: 'lastEventId must be an event id' }]);
    const own = this.subscriptions.get(memberId) ?? new Set<StreamSubscription>();
    if (own.size >= this.limits.perMember) throw new AppError('RATE_LIMITED', `Too many open notification streams for this member (at most ${this.limits.perMember})`);
    if (this.open >= this.limits.total) throw new AppError('UNAVAILABLE', 'Too many open notification streams: try again later');
    const subscription = new StreamSubscription(locale, lastEventId ?? null, () => this.remove(memberId, subscription));
    own.add(subscription);
    this.subscriptions.set(memberId, own);
    this.open += 1;
    try {
      await this.listen();
      const replayed = lastEventId != null ? await this.replay(memberId, lastEventId) : [];
      subscription.start(replayed);
      return subscription;
    } catch (error) {
      subscription.end();
      throw error instanceof AppError ? error : new AppError('UNAVAILABLE', 'The notification stream is unavailable', [], undefined, error);
    }
  }

  /** How many streams are open in this process. */
  get openStreams(): number {
    return this.open;
  }

  /** Ends every stream and closes the connection. */
  async stop(): Promise<void> {
    this.endAll();
    const listening = this.listening;
    this.listening = undefined;
    const client = await listening?.catch(() => undefined);
    await client?.end().catch(() => undefined);
  }

  private remove(memberId: string, subscription: StreamSubscription): void {
    const own = this.subscriptions.get(memberId);
    if (!own?.delete(subscription)) return;
    this.open -= 1;
    if (own.size === 0) this.subscriptions.delete(memberId);
  }

  private listen(): Promise<Client> {
    this.listening ??= (async () => {
      const client = new Client({ connectionString: this.databaseUrl });
      client.on('notification', (message) => this.announced(message.payload));
      client.on('error', (error) => this.lost(client, error));
      client.on('end', () => this.lost(client));
      await client.connect();
      await client.query(`listen ${STREAM_CHANNEL}`);
      return client;
    })();
    const listening = this.listening;
    listening.catch(() => {
      if (this.listening === listening) this.listening = undefined;
    });
    return listening;
  }

  /** The connection failed or ended: every stream ends (its client resumes after its last event), the next one listens again. */
  private lost(client: Client, error?: Error): void {
    const listening = this.listening;
    if (!listening) return;
    void listening.then((current) => {
      if (current !== client || this.listening !== listening) return;
      this.listening = undefined;
      if (error) this.logger.warn({ err: error }, 'notification stream connection lost');
      this.endAll();
      void client.end().catch(() => undefined);
    }, () => undefined);
  }

  private endAll(): void {
    for (const own of [...this.subscriptions.values()]) for (const subscription of [...own]) subscription.end();
  }

  /** An announcement `{memberId, sequence}`: read later, in batches, only for members with a stream here. */
  private announced(payload: string | undefined): void {
    let announcement: { memberId?: unknown; sequence?: unknown };
    try {
      announcement = JSON.parse(payload ?? '');
    } catch {
      return;
    }
    if (typeof announcement.memberId !== 'string' || typeof announcement.sequence !== 'string') return;
    if (!this.subscriptions.has(announcement.memberId)) return;
    this.pending.push(announcement.sequence);
    void this.drain();
  }

  /** Reads the announced events in commit order and hands each to its member's streams here. */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.pending.length > 0) {
        const sequences = this.pending.splice(0, 500);
        const rows = await this.orm.em.fork().execute<OutboxRow[]>(
          `select sequence::text as sequence, type, aggregate_id, payload from notification.outbox_event
            where sequence = any(?::bigint[]) and type = any(?::text[]) order by sequence`,
          [`{${sequences.join(',')}}`, `{${STREAMED_TYPES.join(',')}}`],
        );
        for (const row of rows) for (const subscription of this.subscriptions.get(row.aggregate_id) ?? []) subscription.deliver(row);
      }
    } catch (error) {
      this.logger.error({ err: error }, 'notification stream could not read announced events');
      this.endAll();
    } finally {
      this.draining = false;
    }
  }

  private replay(memberId: string, lastEventId: string): Promise<OutboxRow[]> {
    return this.orm.em.fork().execute<OutboxRow[]>(
      `select sequence::text as sequence, type, aggregate_id, payload from notification.outbox_event
        where aggregate_id = ? and sequence > ?::bigint and type = any(?::text[]) order by sequence limit ?`,
      [memberId, lastEventId, `{${STREAMED_TYPES.join(',')}}`, REPLAY_LIMIT],
    );
  }
}

/**
 * One open stream: an async iterator over its events. Events announced while the replay is read are
 * held, then delivered after it; an event at or before the last one delivered is dropped (replay and
 * live overlap). `return()` (the client left) or `end()` removes it from the hub.
 */
class StreamSubscription implements AsyncIterableIterator<NotificationStreamEvent> {
  private readonly queue: NotificationStreamEvent[] = [];
  private held: OutboxRow[] | null = [];
  private waiting?: (result: IteratorResult<NotificationStreamEvent>) => void;
  private closed = false;

  constructor(
    private readonly locale: Locale | undefined,
    private last: string | null,
    private readonly onEnd: () => void,
  ) {}

  start(replayed: OutboxRow[]): void {
    this.enqueue({ id: null, type: NotificationStreamEventType.connected, timestamp: new Date(), notification: null, read: null });
    for (const row of [...replayed, ...(this.held ?? [])]) this.accept(row);
    this.held = null;
  }

  deliver(row: OutboxRow): void {
    if (this.held) this.held.push(row);
    else this.accept(row);
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    this.onEnd();
    this.waiting?.({ value: undefined, done: true });
    this.waiting = undefined;
  }

  next(): Promise<IteratorResult<NotificationStreamEvent>> {
    const value = this.queue.shift();
    if (value) return Promise.resolve({ value, done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<NotificationStreamEvent>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<NotificationStreamEvent> {
    return this;
  }

  private accept(row: OutboxRow): void {
    if (this.last !== null && BigInt(row.sequence) <= BigInt(this.last)) return;
    this.last = row.sequence;
    this.enqueue(streamEvent(row, this.locale));
  }

  private enqueue(event: NotificationStreamEvent): void {
    if (this.closed) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      return resolve({ value: event, done: false });
    }
    this.queue.push(event);
    if (this.queue.length > MAX_QUEUED) this.end();
  }
}

/** The stream event of an outbox row: the created notification (in `locale`), or what was read. */
function streamEvent(row: OutboxRow, locale: Locale | undefined): NotificationStreamEvent {
  if (row.type === NOTIFICATION.events.read) {
    const read = row.payload as unknown as NotificationRead;
    return {
      id: row.sequence,
      type: NotificationStreamEventType.notification_read,
      timestamp: new Date(read.readAt),
      notification: null,
      read: { notificationId: read.notificationId, updatedCount: read.updatedCount, readAt: new Date(read.readAt) },
    };
  }
  const created = row.payload as unknown as NotificationCreated;
  const { notificationId, createdAt, ...fields } = created;
  const notification = Object.assign(new InAppNotification(), fields, {
    id: notificationId,
    readAt: null,
    createdAt: new Date(createdAt),
    updatedAt: new Date(createdAt),
    deletedAt: null,
  });
  return {
    id: row.sequence,
    type: NotificationStreamEventType.new_notification,
    timestamp: new Date(createdAt),
    notification: projectLocale(notification, [...NOTIFICATION_TEXTS], locale),
    read: null,
  };
}
