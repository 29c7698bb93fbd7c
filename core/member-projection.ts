import { MikroORM } from '@mikro-orm/core';
import { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { KnownMembers } from './known-members';
import { PublishedEvent } from './events/outbox-event';
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

/**
 * The table of a consuming domain's projection of the members, for its migration: `known_member`, a
 * member the domain learnt of (an event, or auth's answer to a fallback); `deleted_at` once its deletion
 * was announced: a tombstone, so that a fallback that read auth just before brings no deleted member back.
 */
export function memberProjectionSql(schema: string): string {
  return `
    create table ${schema}.known_member (
      member_id uuid primary key,
      deleted_at timestamptz
    );`;
}

/**
 * A consuming domain's own projection of which members exist (ARCHITECTURE.md rule 2), in its schema:
 * kept from the owner's creation and deletion events (`consumer`) and completed by each confirmed
 * fallback (`remember`): a member that existed before the projection is learnt at its first write.
 * Eventually consistent: see docs/decisions.md, "Which members exist".
 */
export class MemberProjection {
  constructor(
    private readonly orm: MikroORM<PostgreSqlDriver>,
    private readonly lifecycle: MemberLifecycle,
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

  /** Members the owner confirmed exist (a fallback's answer): known from now on, unless their deletion was applied meanwhile. */
  async remember(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.orm.em.getConnection().execute(
      `insert into ${this.schema}.known_member (member_id) select id::uuid from jsonb_array_elements_text(?::jsonb) as id on conflict do nothing`,
      [JSON.stringify(ids)],
    );
  }
}

/**
 * A consuming domain's projection and the `KnownMembers` its write paths ask (falling back to auth through
 * `supergraph` for a member the projection does not hold), with the domain's own document. The domain
 * declares `projection.consumer` among its consumers.
 */
export function projectedMembers(
  orm: MikroORM<PostgreSqlDriver>,
  lifecycle: MemberLifecycle,
  supergraph: SupergraphClient,
  knownMembersDocument: string,
): { projection: MemberProjection; members: KnownMembers } {
  const projection = new MemberProjection(orm, lifecycle);
  return { projection, members: new KnownMembers(supergraph, knownMembersDocument, projection) };
}
