import { EntityManager } from '@mikro-orm/postgresql';
import { onceForKeyIn, requestHash } from '../../../core/idempotency';
import { conflict } from '../../../core/errors';

/** Idempotency keys of v1 notification sends (`notification.idempotency_record`), as the point domain keeps its own. */
export const onceForKey = onceForKeyIn('notification');

/**
 * What a key already produced for this request (the id its first request wrote), before anything is
 * checked: a replay answers as the first request did even when a check would now fail (a customer
 * deleted since, a schedule_at now past). Null when the key is new (or its first request is still
 * running: `onceForKey` then makes the repeat wait for it); 409 when it was used with another body.
 */
export async function answeredBefore(em: EntityManager, scope: string, key: string | undefined, body: unknown): Promise<string | null> {
  if (!key) return null;
  const [existing] = await em.execute<Array<{ request_hash: string; response: { id: string } | null }>>(
    'select request_hash, response from notification.idempotency_record where scope = ? and key = ?',
    [scope, key],
  );
  if (!existing?.response) return null;
  if (existing.request_hash !== requestHash(body)) throw conflict('This Idempotency-Key was used with a different request', 'Idempotency-Key');
  return existing.response.id;
}
