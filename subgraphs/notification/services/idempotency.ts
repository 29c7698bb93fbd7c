import { onceForKeyIn } from '../../../core/idempotency';

/** Idempotency keys of v1 notification sends (`notification.idempotency_record`), as the point domain keeps its own. */
export const onceForKey = onceForKeyIn('notification');
