import { Arg, Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Access, Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { BookingContext } from '../context';
import { BOOKING } from '../contract';
import { Booking } from '../entities/booking';
import { Venue } from '../entities/venue';
import { qrCodeOf } from '../services/booking.service';
import { BookingIdArgs, BookingIdempotencyArgs, BookingListArgs, BookingPage, CreateBookingInput, UpdateBookingInput } from '../types/booking.types';
import { MemberReference } from '../types/member.type';

/** Bookings: staff with booking:manage (read: booking:read), and customers on their own. */
@Resolver(() => Booking)
export class BookingResolver {
  @Authorized(Access.member, BOOKING.permissions.manage)
  @Mutation(() => Booking, { description: 'Books places (confirmed, with a check-in code); a customer books for itself. 422-like refusal (extensions.reason NO_AVAILABILITY) when full or closed' })
  createBooking(@Arg('input') input: CreateBookingInput, @Args() { idempotencyKey }: BookingIdempotencyArgs, @Caller() caller: Principal, @Ctx() ctx: BookingContext) {
    return ctx.services.bookings.create(input, caller, idempotencyKey, ctx.requestId);
  }

  @Authorized(Access.member, BOOKING.permissions.manage)
  @Mutation(() => Booking, { description: 'Changes a confirmed booking not checked in yet, checking capacity again' })
  updateBooking(@Args() { id }: BookingIdArgs, @Arg('input') input: UpdateBookingInput, @Caller() caller: Principal, @Ctx() ctx: BookingContext) {
    return ctx.services.bookings.update(id, input, caller);
  }

  @Authorized(Access.member, BOOKING.permissions.manage)
  @Mutation(() => Booking, { description: 'Cancels a booking and frees its places (409 once checked in, cancelled or completed)' })
  cancelBooking(@Args() { id }: BookingIdArgs, @Arg('reason', () => String, { nullable: true }) reason: string | undefined, @Caller() caller: Principal, @Ctx() ctx: BookingContext) {
    return ctx.services.bookings.cancel(id, reason ?? undefined, caller);
  }

  @Authorized(Access.member, BOOKING.permissions.manage)
  @Mutation(() => Booking, { description: 'Checks a booking in with its code, from BOOKING_CHECK_IN_LEAD_MINUTES before its start until its end (extensions.reason INVALID_CHECK_IN_CODE when wrong, NOT_ELIGIBLE outside that window)' })
  checkInBooking(@Args() { id }: BookingIdArgs, @Arg('checkInCode', () => String, { nullable: true }) code: string | undefined, @Caller() caller: Principal, @Ctx() ctx: BookingContext) {
    return ctx.services.bookings.checkIn(id, code ?? undefined, caller);
  }

  @Authorized(Access.member, BOOKING.permissions.read)
  @Query(() => BookingPage, { description: 'Bookings, latest service day first; a customer sees its own' })
  bookings(@Args() args: BookingListArgs, @Caller() caller: Principal, @Ctx() ctx: BookingContext) {
    return ctx.services.bookings.list(args, caller);
  }

  @Authorized(Access.member, BOOKING.permissions.read)
  @Query(() => Booking)
  booking(@Args() { id }: BookingIdArgs, @Caller() caller: Principal, @Ctx() ctx: BookingContext) {
    return ctx.services.bookings.get(id, caller);
  }

  @FieldResolver(() => String, { description: 'The check-in code as a QR image (SVG data URL)' })
  qrCode(@Root() booking: Booking): Promise<string> {
    return qrCodeOf(booking.checkInCode);
  }

  @FieldResolver(() => Venue, { description: 'The venue (also one since removed)' })
  venue(@Root() booking: Booking, @Ctx() ctx: BookingContext): Promise<Venue> {
    return ctx.services.venues.byId(booking.venueId);
  }

  @FieldResolver(() => MemberReference, { description: 'The customer, resolved by the auth subgraph' })
  member(@Root() booking: Booking): MemberReference {
    return { id: booking.memberId };
  }
}
