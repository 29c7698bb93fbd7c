import { onceForKeyIn } from '../../../core/idempotency';

/** Idempotency keys of the point domain's writes (`point.idempotency_record`). */
export const onceForKey = onceForKeyIn('point');
