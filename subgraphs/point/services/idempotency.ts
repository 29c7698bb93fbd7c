import { keepRefusalIn, onceForKeyIn } from '../../../core/idempotency';

/** Idempotency keys of the point domain's writes (`point.idempotency_record`). */
export const onceForKey = onceForKeyIn('point');

/** Refusals kept as their key's answer (`point.idempotency_record`): a spend a saga compensated stays refused. */
export const keepRefusal = keepRefusalIn('point');
