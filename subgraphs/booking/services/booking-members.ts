import { Principal } from '../../../core/auth/principal';
import { knownMembersDocument } from '../../../core/known-members';
import { projectedMembers } from '../../../core/member-projection';
import { ModuleStart } from '../../../core/module';
import { supergraphAs } from '../../../core/supergraph-client';
import { AUTH, MEMBER_LIFECYCLE } from '../../auth/contract';

/** The documents the booking domain runs on the gateway (validated by `npm run schema:check`). */
export const BOOKING_SUPERGRAPH_OPERATIONS = {
  BookingKnownMembers: knownMembersDocument('BookingKnownMembers'),
};

/** The booking domain on the supergraph: reads which members exist (`member:read`), nothing else. */
export const BOOKING_SERVICE_PRINCIPAL = new Principal('service', 'internal:booking', 'internal', [AUTH.permissions.memberRead]);

/** Which members exist, from booking's projection (`booking.known_member`) with auth as fallback: bookings are for known members only. */
export const bookingMembers = ({ config, gateway, orm }: Pick<ModuleStart<unknown>, 'config' | 'gateway' | 'orm'>) =>
  projectedMembers(orm, MEMBER_LIFECYCLE, supergraphAs(BOOKING_SERVICE_PRINCIPAL, config, gateway), BOOKING_SUPERGRAPH_OPERATIONS.BookingKnownMembers);
