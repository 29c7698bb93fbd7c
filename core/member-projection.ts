import { MikroORM } from '@mikro-orm/core';
import { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { ensureQueue, RetryPolicy, workOn } from './events/job-queue';
import { KnownMembers } from './known-members';
import { PublishedEvent } from './events/outbox-event';
import { Logger } from './logger';
import type { EventConsumer } from './module';
import { SupergraphClient } from './supergraph-client';

/**
 * The events by which the members' owner announces that a member came to exist or stopped existing
 * (auth's contract gives them: `MEMBER_LIFECYCLE`), and how to read the member out of each.
 */
export interface MemberLifecycle {
  created: string;
  deleted: string;
  /** The member a `created` or `deleted` event names. */
  memberOf: (event: PublishedEvent<unknown>) => string;
}

/** What the fill asks the owner for at a time (its list's largest page). */
const FILL_PAGE = 100;

/**
 * The document the fill pages through the owner's live members with, oldest first (auth's `members`,
 * `member:read`). Each domain names its own (`<Domain>MemberPage`) in its supergraph operations.
 */
export const memberPageDocument = (name: string) =>
  `query ${name}($page: Int!) { members(page: $page, limit: ${FILL_PAGE}, sortBy: createdAt, sortOrder: asc) { meta { totalPages } data { id } } }`;

/**
 * The tables of a consuming domain's projection of the members, for its migration: `known_member`
 * (a member the domain learnt of; `deleted_at` once its deletion was announced: a tombstone, so that
 * neither the fill nor a fallback brings a deleted member back) and `known_member_fill` (one row:
 * when the fill from the members that existed before the projection completed).
 */
export function memberProjectionSql(schema: string): string {
  return `
    create table ${schema}.known_member (
      member_id uuid primary key,
      deleted_at timestamptz
    );
    create table ${schema}.known_member_fill (
      single boolean primary key default true check (single),
      filled_at timestamptz
    );
    insert into ${schema}.known_member_fill (single) values (true);`;
}

/** The fill waits for the gateway (which a platform starts after its domains): tried again 1 s later, doubling, about 17 minutes in all. */
const FILL_RETRY: RetryPolicy = { retryLimit: 10, retryDelay: 1 };

/**
 * A consuming domain's own projection of which members exist (ARCHITECTURE.md rule 2), in its schema:
 * kept from the owner's creation and deletion events (`consumer`), filled once from the owner's member
 * list through the gateway (`start`: a job, until it completed), and completed by each confirmed
 * fallback (`remember`). Eventually consistent: see docs/decisions.md, "Which members exist".
 */
export class MemberProjection {
  private stopping = false;

  constructor(
    private readonly orm: MikroORM<PostgreSqlDriver>,
    private readonly lifecycle: MemberLifecycle,
    private readonly supergraph: SupergraphClient,
    private readonly pageDocument: string,
  ) {}

  private get schema(): string {
    return this.orm.config.get('schema')!;
  }

  /** The consumer that keeps the projection (declared in the domain's `consumers`): a member's events in order. */
  get consumer(): EventConsumer {
    const { created, deleted, memberOf } = this.lifecycle;
    return {
      queue: `${this.schema}.known-members`,
      events: [created, deleted],
      batchSize: 100,
      apply: async (em: EntityManager, event: PublishedEvent) => {
        const memberId = memberOf(event);
        if (event.type === created) {
          await em.execute(`insert into ${this.schema}.known_member (member_id) values (?) on conflict do nothing`, [memberId]);
        } else {
          await em.execute(
            `insert into ${this.schema}.known_member (member_id, deleted_at) values (?, ?)
             on conflict (member_id) do update set deleted_at = coalesce(known_member.deleted_at, excluded.deleted_at)`,
            [memberId, event.occurredAt],
          );
        }
      },
    };
  }

  /** Of `ids` (lowercase uuids), those the projection holds as live and those it holds as deleted; the rest it does not know. */
  async lookup(ids: string[]): Promise<{ live: Set<string>; deleted: Set<string> }> {
    const live = new Set<string>();
    const deleted = new Set<string>();
    if (ids.length === 0) return { live, deleted };
    const rows: Array<{ id: string; gone: boolean }> = await this.orm.em
      .getConnection()
      .execute(`select member_id::text as id, deleted_at is not null as gone from ${this.schema}.known_member where member_id in (?)`, [ids]);
    for (const { id, gone } of rows) (gone ? deleted : live).add(id);
    return { live, deleted };
  }

  /** Members the owner confirmed exist (a fallback's answer, the fill): known from now on, unless their deletion was applied meanwhile. */
  async remember(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.orm.em.getConnection().execute(
      `insert into ${this.schema}.known_member (member_id) select id::uuid from jsonb_array_elements_text(?::jsonb) as id on conflict do nothing`,
      [JSON.stringify(ids)],
    );
  }

  /**
   * Starts the fill from the members that existed before the projection (the domain's `onStart`): a job
   * on `<schema>.known-members-fill`, sent by every start until one run has completed. Runs of two
   * processes at once insert the same ids twice, to no effect.
   */
  async start(boss: PgBoss, databaseUrl: string, logger: Logger): Promise<void> {
    const queue = `${this.schema}.known-members-fill`;
    await ensureQueue(boss, databaseUrl, queue, FILL_RETRY);
    await workOn(boss, queue, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async () => {
      const filled = await this.fill();
      if (filled !== undefined) logger.info({ members: filled }, 'member projection filled');
    });
    const [{ filled_at }] = await this.orm.em.getConnection().execute(`select filled_at from ${this.schema}.known_member_fill`);
    if (!filled_at) await boss.send(queue, {});
  }

  /** Ends a fill under way at its next page (the domain's `onStop`, before its job queue stops). */
  stop(): void {
    this.stopping = true;
  }

  /**
   * Pages through the owner's live members, oldest first, remembering each; marks the fill done after
   * the last page. A member deleted meanwhile may shift a page and be passed over: the fallback learns
   * it on its first write. Resolves with the number of members seen, or undefined when there was
   * nothing to do or the domain is stopping.
   */
  private async fill(): Promise<number | undefined> {
    const [{ filled_at }] = await this.orm.em.getConnection().execute(`select filled_at from ${this.schema}.known_member_fill`);
    if (filled_at) return undefined;
    let seen = 0;
    for (let page = 1; ; page++) {
      if (this.stopping) return undefined;
      const { members } = await this.supergraph.run<{ members: { meta: { totalPages: number }; data: Array<{ id: string }> } }>(this.pageDocument, { page });
      await this.remember(members.data.map((member) => member.id.toLowerCase()));
      seen += members.data.length;
      if (page >= members.meta.totalPages) break;
    }
    await this.orm.em.getConnection().execute(`update ${this.schema}.known_member_fill set filled_at = now()`);
    return seen;
  }
}

/**
 * A consuming domain's projection and the `KnownMembers` its write paths ask (falling back to auth through
 * `supergraph` for a member the projection does not hold), with the domain's own documents. The domain
 * declares `projection.consumer` among its consumers, starts it in `onStart` and stops it in `onStop`.
 */
export function projectedMembers(
  orm: MikroORM<PostgreSqlDriver>,
  lifecycle: MemberLifecycle,
  supergraph: SupergraphClient,
  documents: { knownMembers: string; memberPage: string },
): { projection: MemberProjection; members: KnownMembers } {
  const projection = new MemberProjection(orm, lifecycle, supergraph, documents.memberPage);
  return { projection, members: new KnownMembers(supergraph, documents.knownMembers, projection) };
}
