import { Principal } from '../../../core/auth/principal';
import { Config } from '../../../core/config';
import { OperationExecutor } from '../../../core/graphql-http';
import { KnownMembers, knownMembersDocument } from '../../../core/known-members';
import { supergraphAs } from '../../../core/supergraph-client';
import { AUTH } from '../../auth/contract';

/** The documents the booking domain runs on the gateway (validated by `npm run schema:check`). */
export const BOOKING_SUPERGRAPH_OPERATIONS = {
  BookingKnownMembers: knownMembersDocument('BookingKnownMembers'),
};

/** The booking domain on the supergraph: reads which members exist (`member:read`), nothing else. */
export const BOOKING_SERVICE_PRINCIPAL = new Principal('service', 'internal:booking', 'internal', [AUTH.permissions.memberRead]);

/** Which members exist: bookings are for known members only. */
export const bookingMembers = (config: Pick<Config, 'jwtSecret'>, gateway: OperationExecutor): KnownMembers =>
  new KnownMembers(supergraphAs(BOOKING_SERVICE_PRINCIPAL, config, gateway), BOOKING_SUPERGRAPH_OPERATIONS.BookingKnownMembers);
