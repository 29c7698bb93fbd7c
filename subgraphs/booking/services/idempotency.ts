import { onceForKeyIn } from '../../../core/idempotency';

/** Idempotency keys of bookings (`booking.idempotency_record`), as the point domain keeps its own. */
export const onceForKey = onceForKeyIn('booking');
