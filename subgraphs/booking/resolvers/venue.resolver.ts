import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Access } from '../../../core/auth/access';
import { BookingContext } from '../context';
import { BOOKING } from '../contract';
import { Venue } from '../entities/venue';
import { AvailabilityArgs, VenueAvailability, VenueIdArgs, VenueInput, VenueListArgs, VenuePage } from '../types/venue.types';

/** Venues: managed by admins (venue:manage), read by anyone who may read bookings and by customers. */
@Resolver(() => Venue)
export class VenueResolver {
  @Authorized(BOOKING.permissions.venueManage)
  @Mutation(() => Venue, { description: 'Creates a venue; 400 on every bad field' })
  createVenue(@Arg('input') input: VenueInput, @Ctx() ctx: BookingContext) {
    return ctx.services.venues.create(input);
  }

  @Authorized(BOOKING.permissions.venueManage)
  @Mutation(() => Venue, { description: 'Changes a venue (hours and slot length are fixed while it has upcoming bookings: 409)' })
  updateVenue(@Args() { id }: VenueIdArgs, @Arg('input') input: VenueInput, @Ctx() ctx: BookingContext) {
    return ctx.services.venues.update(id, input);
  }

  @Authorized(BOOKING.permissions.venueManage)
  @Mutation(() => Boolean, { description: 'Removes a venue (409 while it has upcoming bookings)' })
  deleteVenue(@Args() { id }: VenueIdArgs, @Ctx() ctx: BookingContext) {
    return ctx.services.venues.delete(id);
  }

  @Authorized(Access.member, BOOKING.permissions.read)
  @Query(() => VenuePage, { description: 'Venues, newest first, each with its free slots of the next 7 days' })
  venues(@Args() args: VenueListArgs, @Ctx() ctx: BookingContext) {
    return ctx.services.venues.list(args);
  }

  @Authorized(Access.member, BOOKING.permissions.read)
  @Query(() => Venue)
  venue(@Args() { id }: VenueIdArgs, @Ctx() ctx: BookingContext) {
    return ctx.services.venues.get(id);
  }

  @Authorized(Access.member, BOOKING.permissions.read)
  @Query(() => VenueAvailability, { description: 'Free places per slot and day (at most 31 days)' })
  venueAvailability(@Args() args: AvailabilityArgs, @Ctx() ctx: BookingContext) {
    return ctx.services.venues.availability(args);
  }
}
