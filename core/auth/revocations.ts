import { Client } from 'pg';
import { withAdvisoryLock } from '../db/orm';
import { Logger } from '../logger';

/** The channel a revocation is announced on: `pg_notify` in the revoking transaction, delivered at its commit. */
export const REVOCATION_CHANNEL = 'credential_revocation';
/** The `application_name` of each process's listening connection (visible in pg_stat_activity). */
export const REVOCATION_LISTENER = 'credential-revocations';
const SCHEMA = 'edge';
const TABLE = `${SCHEMA}.credential_revocation`;
/**
 * A revocation matters while a token issued before it may still be live: twice the longest access
 * token lifetime (an hour, jwt.ts). Older ones are forgotten (rows and memory).
 */
const KEPT_MS = 2 * 3600 * 1000;
const RECONNECT_FIRST_MS = 250;
const RECONNECT_MAX_MS = 5000;

/** What a revocation names: a subject (staff, member, API key id), an OAuth token family, or an OAuth client. */
export const revocationSubject = {
  principal: (id: string) => id,
  oauthFamily: (familyId: string) => `oauth-family:${familyId}`,
  oauthClient: (clientId: string) => `oauth-client:${clientId}`,
};

/** What runs SQL in the revoking transaction (an EntityManager inside `transactional`, or a pg client). */
export interface SqlExecutor {
  execute(sql: string, params: unknown[]): Promise<unknown>;
}

/**
 * Revokes every token naming `subject` issued until now, in the caller's transaction: the time is the
 * database's clock when this statement runs, so call it after the statements that change the subject
 * (those take its row lock, which the issuing of a token holds too: a token is either signed before
 * the lock was taken, and so before this time, or after the commit, when the subject no longer stands).
 * Every other process learns it at the commit (LISTEN), or on reconnecting (the table); this one at
 * once, so that its next request sees it (should the transaction roll back, this process alone refuses
 * the subject's older tokens until they expire: it fails closed).
 */
export async function recordRevocation(executor: SqlExecutor, subject: string): Promise<void> {
  const rows = (await executor.execute(
    `with revoked as (
       insert into ${TABLE} (subject, revoked_at) values (?, clock_timestamp())
       on conflict (subject) do update set revoked_at = excluded.revoked_at
       returning subject, (extract(epoch from revoked_at) * 1000)::bigint::text as at
     )
     select at, pg_notify('${REVOCATION_CHANNEL}', json_build_object('subject', subject, 'at', at)::text) from revoked`,
    [subject],
  )) as Array<{ at: string }>;
  credentialRevocations.remember(subject, Number(rows[0].at));
}

/** The database's clock in epoch milliseconds: a token's issue time, comparable with revocation times. */
export async function databaseNowMs(executor: SqlExecutor): Promise<number> {
  const rows = (await executor.execute(`select (extract(epoch from clock_timestamp()) * 1000)::bigint::text as now`, [])) as Array<{ now: string }>;
  return Number(rows[0].now);
}

/** Creates the revocation table once (every process that verifies tokens starts this). */
async function ensureTable(databaseUrl: string): Promise<void> {
  await withAdvisoryLock(databaseUrl, `migrate:${SCHEMA}:revocations`, async (client) => {
    await client.query(`create schema if not exists ${SCHEMA}`);
    await client.query(`create table if not exists ${TABLE} (subject varchar(255) primary key, revoked_at timestamptz not null)`);
    await client.query(`create index if not exists credential_revocation_revoked_at on ${TABLE} (revoked_at)`);
  });
}

/** One LISTEN connection to one database, reconnecting with back-off; each (re)connection reloads the table. */
class RevocationListener {
  private client?: Client;
  private users = 0;
  private stopped = false;
  private retryMs = RECONNECT_FIRST_MS;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly databaseUrl: string,
    private readonly known: CredentialRevocations,
    private readonly logger: Logger,
  ) {}

  async acquire(): Promise<void> {
    this.users += 1;
    if (this.users === 1) {
      await ensureTable(this.databaseUrl);
      await this.connect();
    }
  }

  /** Resolves true when nobody uses it any longer (it is then closed). */
  async release(): Promise<boolean> {
    this.users -= 1;
    if (this.users > 0) return false;
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
    return true;
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl, application_name: REVOCATION_LISTENER });
    client.on('notification', (message) => this.known.announced(message.payload));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    await client.connect();
    await client.query(`listen ${REVOCATION_CHANNEL}`);
    // Whatever was announced while this process was not listening is in the table.
    const { rows } = await client.query<{ subject: string; at: string }>(
      `select subject, (extract(epoch from revoked_at) * 1000)::bigint::text as at from ${TABLE} where revoked_at > clock_timestamp() - make_interval(secs => $1)`,
      [KEPT_MS / 1000],
    );
    for (const row of rows) this.known.remember(row.subject, Number(row.at));
    await client.query(`delete from ${TABLE} where revoked_at < clock_timestamp() - make_interval(secs => $1)`, [KEPT_MS / 1000]);
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = RECONNECT_FIRST_MS;
  }

  /** The connection failed or ended: listen again after a back-off, until it works or the platform stops. */
  private lost(client: Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    this.logger.warn({ err: error }, 'revocation listener lost its connection: reconnecting');
    this.retry();
  }

  private retry(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.connect().catch((error) => {
        this.logger.warn({ err: error, retryMs: this.retryMs }, 'revocation listener could not reconnect');
        this.retryMs = Math.min(RECONNECT_MAX_MS, this.retryMs * 2);
        this.retry();
      });
    }, this.retryMs);
    this.timer.unref();
  }
}

/**
 * The credentials revoked lately, as this process knows them: subject → when (epoch ms). Every token
 * verification asks it (`isRevoked`), so a revoked API key, OAuth token or family, a deleted or
 * deactivated staff member or customer, stops working in every process once the revoking transaction
 * commits (PostgreSQL NOTIFY, milliseconds), and a process that was not listening reloads the table
 * when it reconnects. One per process (`credentialRevocations`), started by each part that verifies tokens.
 */
export class CredentialRevocations {
  private readonly revokedAt = new Map<string, number>();
  private readonly listeners = new Map<string, RevocationListener>();

  /** Listens on the database (once per database URL, however many parts of this process ask). */
  async start(databaseUrl: string, logger: Logger): Promise<void> {
    let listener = this.listeners.get(databaseUrl);
    if (!listener) {
      listener = new RevocationListener(databaseUrl, this, logger);
      this.listeners.set(databaseUrl, listener);
    }
    await listener.acquire();
  }

  async stop(databaseUrl: string): Promise<void> {
    const listener = this.listeners.get(databaseUrl);
    if (listener && (await listener.release())) this.listeners.delete(databaseUrl);
  }

  /** Whether a token issued at `issuedAtMs` naming any of `subjects` was revoked since. */
  isRevoked(subjects: readonly string[], issuedAtMs: number): boolean {
    for (const subject of subjects) {
      const at = this.revokedAt.get(subject);
      if (at !== undefined && issuedAtMs <= at) return true;
    }
    return false;
  }

  /** A NOTIFY payload `{subject, at}`. */
  announced(payload: string | undefined): void {
    try {
      const { subject, at } = JSON.parse(payload ?? '');
      if (typeof subject === 'string' && /^\d+$/.test(at)) this.remember(subject, Number(at));
    } catch {
      // Not ours: nothing to remember.
    }
  }

  remember(subject: string, at: number): void {
    if (at <= (this.revokedAt.get(subject) ?? -1)) return;
    this.revokedAt.set(subject, at);
    this.forgetOld();
  }

  private forgetOld(): void {
    if (this.revokedAt.size % 1000 !== 0) return;
    const oldest = Date.now() - KEPT_MS;
    for (const [subject, at] of this.revokedAt) if (at < oldest) this.revokedAt.delete(subject);
  }
}

/** This process's revocations: token verification everywhere in the process consults it. */
export const credentialRevocations = new CredentialRevocations();
