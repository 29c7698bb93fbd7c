import { EntityManager } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';
import { runStatement } from './db/statement';
import { AppError, conflict, ErrorCode, FieldError } from './errors';

/** A stable hash of a request body: same fields and values, in any key order, give the same hash. */
export function requestHash(body: unknown): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, canonical(v)]))
        : value;
  return createHash('sha256').update(JSON.stringify(canonical(body))).digest('hex');
}

/**
 * Runs `work` once per (scope, key); see `onceForKeyIn`. `expectedId`, when the caller chose the id
 * `work` will produce beforehand, is recorded with the claim itself, so a key costs one statement.
 */
export type OnceForKey = (
  em: EntityManager,
  scope: string,
  key: string | undefined,
  body: unknown,
  work: () => Promise<string>,
  expectedId?: string,
) => Promise<{ id: string; replayed: boolean }>;

/** What a key answers for good once `keepRefusalIn` kept a refusal under it. */
interface KeptRefusal {
  refused: { code: ErrorCode; message: string; fieldErrors: FieldError[] };
}

/**
 * Idempotency keys kept in a domain's `<schema>.idempotency_record` (scope, key, request_hash,
 * response): inside the caller's transaction, the first request records the key and the id of what it
 * produced; a repeat with the same body gets that id back and writes nothing; the same key with
 * another body is 409. A concurrent repeat waits on the key's row. The claim may record the id before
 * `work` runs (`expectedId`): it commits only with what `work` wrote, and is corrected when `work`
 * answers another id (an earlier result it found). The hot statements are bound by the driver
 * (core/db/statement), not built by the ORM per call. A key under which a refusal was kept
 * (`keepRefusalIn`) answers that refusal again.
 */
export const onceForKeyIn = (schema: string): OnceForKey => {
  const claim = `insert into ${schema}.idempotency_record (scope, key, request_hash, response) values ($1, $2, $3, $4) on conflict do nothing returning key`;
  const answer = `update ${schema}.idempotency_record set response = $1 where scope = $2 and key = $3`;
  return async (em, scope, key, body, work, expectedId) => {
    if (!key) return { id: await work(), replayed: false };
    const hash = requestHash(body);
    const claimed = await runStatement(em, claim, [scope, key, hash, expectedId === undefined ? null : JSON.stringify({ id: expectedId })]);
    if (claimed.length === 0) {
      const [existing] = await em.execute(`select request_hash, response from ${schema}.idempotency_record where scope = ? and key = ?`, [scope, key]);
      if (existing.request_hash !== hash) throw conflict('This Idempotency-Key was used with a different request', 'Idempotency-Key');
      const { refused } = existing.response as Partial<KeptRefusal>;
      if (refused) throw new AppError(refused.code, refused.message, refused.fieldErrors);
      return { id: existing.response.id, replayed: true };
    }
    const id = await work();
    if (id !== expectedId) await runStatement(em, answer, [JSON.stringify({ id }), scope, key]);
    return { id, replayed: false };
  };
};

/**
 * Keeps a refusal as the key's answer for good (outside any transaction: the refused one rolled back),
 * so that no later request under the key (same body) does what was refused, even once it would succeed:
 * for a caller that compensates a refusal (a saga's step) and may be asked the same again by a
 * concurrent actor. False when the key was taken meanwhile (a request under it committed): its answer
 * is the key's, and the caller asks again to have it.
 */
export const keepRefusalIn =
  (schema: string) =>
  async (em: EntityManager, scope: string, key: string, body: unknown, refusal: AppError): Promise<boolean> => {
    const response: KeptRefusal = { refused: { code: refusal.code, message: refusal.message, fieldErrors: refusal.fieldErrors } };
    const kept = await em.execute(`insert into ${schema}.idempotency_record (scope, key, request_hash, response) values (?, ?, ?, ?) on conflict do nothing returning key`, [
      scope,
      key,
      requestHash(body),
      JSON.stringify(response),
    ]);
    return kept.length > 0;
  };
