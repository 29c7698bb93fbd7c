import { timeOrderedId } from '../../../core/ids';
import { EntityManager } from '@mikro-orm/postgresql';
import { Principal } from '../../../core/auth/principal';
import { notFound } from '../../../core/errors';
import { Logger } from '../../../core/logger';
import { PointTransaction } from '../entities/point-transaction';
import { PointAwardInput, PointAwardResult, PointBatchAwardInput, PointBatchAwardOutcome, PointBatchAwardRow } from '../types/award.types';
import { onceForKey } from './idempotency';
import { LedgerService } from './ledger.service';
import { KnownMembers } from '../../../core/known-members';

/** Rows of a batch awarded in one database transaction. */
const ROWS_PER_TRANSACTION = 500;

interface Award {
  memberId: string;
  points: number;
  reason?: string | null;
  transactionId?: string;
  metadata?: Record<string, unknown>;
}

/**
 * Awards of whole points to known members (the v1 surface): one at a time, with the caller's
 * transaction id making a repeat return the first entry, or in batches whose rows succeed or fail
 * each on its own. The Idempotency-Key of a request and the award's transaction id are deduplicated
 * here, in the transaction of the award, per caller: one partner's ids mean nothing to another's.
 */
export class AwardService {
  constructor(
    private readonly em: EntityManager,
    private readonly ledger: LedgerService,
    private readonly members: KnownMembers,
  ) {}

  /** 404 for an unknown member; the entry (the first one for a repeated transaction id or key). */
  async award(input: PointAwardInput, caller: Principal, idempotencyKey?: string, requestId?: string): Promise<PointTransaction> {
    const memberId = input.memberId.toLowerCase();
    if (!(await this.members.known([memberId], requestId)).has(memberId)) throw notFound('Member', input.memberId);
    return this.em.transactional(async (em) => {
      const entryId = timeOrderedId();
      const { id } = await onceForKey(em, `award:${callerKey(caller)}`, idempotencyKey, input, () => this.awardOnce(em, { ...input, memberId }, caller, entryId), entryId);
      return em.findOneOrFail(PointTransaction, { id });
    });
  }

  /**
   * Every row on its own: an unknown member fails its row only. Rows go set-based in transactions of
   * ROWS_PER_TRANSACTION, each taking its members' balance locks in member order (two batches never
   * deadlock); a transaction that fails is retried row by row. With a key, the batch's body is
   * claimed first (another body is 409) and each row is deduplicated on (key, row): a repeat, a
   * concurrent twin or a retry after a crash awards each row at most once and answers the same entries.
   */
  async awardBatch(input: PointBatchAwardInput, caller: Principal, idempotencyKey?: string, requestId?: string, logger?: Logger): Promise<PointBatchAwardOutcome> {
    const scope = `award-batch:${callerKey(caller)}`;
    if (idempotencyKey) await this.em.fork().transactional((em) => onceForKey(em, scope, idempotencyKey, input, async () => 'batch'));
    const rows = input.awards.map((row) => ({ ...row, memberId: row.memberId.toLowerCase() }));
    const known = await this.members.known(rows.map((row) => row.memberId), requestId);
    // Results name each row's member as the caller gave it.
    const results: PointAwardResult[] = input.awards.map((row, index) =>
      known.has(rows[index].memberId) ? pending(row) : failure(row, 'CUSTOMER_NOT_FOUND', `No customer ${row.memberId}`),
    );
    const todo = rows.map((row, index) => ({ row, index })).filter(({ row }) => known.has(row.memberId));
    for (let start = 0; start < todo.length; start += ROWS_PER_TRANSACTION) {
      const chunk = todo.slice(start, start + ROWS_PER_TRANSACTION);
      try {
        const ids = await this.em.fork().transactional((em) => this.awardChunk(em, chunk, idempotencyKey ? `${scope}:${idempotencyKey}` : undefined));
        chunk.forEach(({ index }, at) => (results[index] = { ...results[index], success: true, transactionId: ids[at] }));
      } catch (chunkError) {
        logger?.warn({ err: chunkError }, 'a batch award transaction failed; its rows are retried one by one');
        for (const { row, index } of chunk) {
          try {
            const [id] = await this.em.fork().transactional((em) => this.awardChunk(em, [{ row, index }], idempotencyKey ? `${scope}:${idempotencyKey}` : undefined));
            results[index] = { ...results[index], success: true, transactionId: id };
          } catch (error) {
            logger?.error({ err: error, memberId: row.memberId }, 'a batch award row failed');
            results[index] = failure(row, 'INTERNAL_ERROR', 'The award could not be recorded');
          }
        }
      }
    }
    const processed = results.filter((result) => result.success).length;
    return { processed, failed: results.length - processed, results };
  }

  /**
   * Rows of a batch in the caller's transaction, set-based (LedgerService.earnMany). With the batch's
   * key scope, each row is claimed as (scope, row index) first: a row claimed before (by a repeat, a
   * concurrent twin, which waits here for its commit, or a run that crashed after committing it) answers
   * its entry and is not awarded again. Returns the entries' ids in the rows' order.
   */
  private async awardChunk(em: EntityManager, chunk: Array<{ row: PointBatchAwardRow; index: number }>, keyScope: string | undefined): Promise<string[]> {
    let todo = chunk;
    const earlier = new Map<number, string>();
    if (keyScope) {
      const keys = JSON.stringify(chunk.map(({ index }) => ({ key: String(index) })));
      const claimed: Array<{ key: string }> = await em.execute(
        `insert into point.idempotency_record (scope, key, request_hash)
         select ?, key, 'batch-row' from jsonb_to_recordset(?::jsonb) as k(key text) order by key on conflict do nothing returning key`,
        [keyScope, keys],
      );
      const mine = new Set(claimed.map(({ key }) => key));
      const others = chunk.filter(({ index }) => !mine.has(String(index)));
      if (others.length > 0) {
        const answered: Array<{ key: string; id: string }> = await em.execute(
          `select key, response->>'id' as id from point.idempotency_record where scope = ? and key in (?)`,
          [keyScope, others.map(({ index }) => String(index))],
        );
        for (const { key, id } of answered) earlier.set(Number(key), id);
      }
      todo = chunk.filter(({ index }) => mine.has(String(index)));
    }
    const ids = await this.ledger.earnMany(
      em,
      todo.map(({ row }) => ({ memberId: row.memberId, amount: row.points.toFixed(2), note: row.reason ?? null, sourceBy: 'Manual' as const })),
    );
    const awarded = new Map(todo.map(({ index }, at) => [index, ids[at]]));
    if (keyScope && todo.length > 0) {
      await em.execute(
        `update point.idempotency_record r set response = jsonb_build_object('id', v.id)
           from jsonb_to_recordset(?::jsonb) as v(key text, id text) where r.scope = ? and r.key = v.key`,
        [JSON.stringify(todo.map(({ index }) => ({ key: String(index), id: awarded.get(index) }))), keyScope],
      );
    }
    return chunk.map(({ index }) => awarded.get(index) ?? earlier.get(index)!);
  }

  /**
   * One award in the caller's transaction; a transaction id the same caller already awarded to the
   * member returns its entry. Another caller's same id is another award (its own entry, reason and
   * metadata): partners choose their ids independently, and never see each other's entries. `entryId`
   * is the new entry's id, chosen first so that the key claims record it (core/idempotency).
   */
  private async awardOnce(em: EntityManager, award: Award, caller: Principal, entryId: string): Promise<string> {
    const earn = async () => {
      const entry = await this.ledger.earn(em, {
        id: entryId,
        memberId: award.memberId,
        amount: award.points.toFixed(2),
        note: award.reason ?? null,
        sourceBy: 'Manual',
        referenceId: award.transactionId ?? null,
        metadata: award.metadata ?? null,
      });
      return entry.id;
    };
    if (!award.transactionId) return earn();
    const reference = { memberId: award.memberId, transactionId: award.transactionId };
    return (await onceForKey(em, `award-reference:${callerKey(caller)}:${award.memberId}`, award.transactionId, reference, earn, entryId)).id;
  }
}

/** Whose ids and keys a deduplication scope holds: the credential's subject (a staff member, an API key, a service). */
const callerKey = (caller: Principal): string => `${caller.kind}:${caller.id}`;

const pending = (row: PointBatchAwardRow): PointAwardResult => ({ memberId: row.memberId, success: false, transactionId: null, error: null });
const failure = (row: PointBatchAwardRow, code: string, message: string): PointAwardResult => ({ memberId: row.memberId, success: false, transactionId: null, error: { code, message } });
