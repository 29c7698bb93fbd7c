import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageType } from '../../../core/pagination';
import { Venue } from '../entities/venue';

/** Fields are checked by the service, all at once, hence all optional here. */
@InputType({ description: 'A venue to create, or what to change of one' })
export class VenueInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true, description: 'restaurant, event or service' }) type?: string | null;
  @Field(() => String, { nullable: true }) address?: string | null;
  @Field(() => String, { nullable: true }) phone?: string | null;
  @Field(() => Int, { nullable: true, description: 'Guests per slot' }) capacity?: number | null;
  @Field(() => String, { nullable: true, description: 'HH:MM' }) openingTime?: string | null;
  @Field(() => String, { nullable: true, description: 'HH:MM; at or before opening: the next day' }) closingTime?: string | null;
  @Field(() => Int, { nullable: true, description: 'Minutes per slot (default 60)' }) slotMinutes?: number | null;
}

@ArgsType()
export class VenueIdArgs {
  @Field(() => ID) id: string;
}

@ArgsType()
export class VenueListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'restaurant, event or service' }) type?: string;
  @Field(() => String, { nullable: true, description: 'Part of the address' }) location?: string;
  @Field(() => Boolean, { nullable: true, description: 'true: venues with a free slot in the horizon; false: those without' }) available?: boolean;
}

@ArgsType()
export class AvailabilityArgs {
  @Field(() => ID) venueId: string;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD (default today)' }) dateFrom?: string;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD (default 6 days after date_from)' }) dateTo?: string;
  @Field(() => String, { nullable: true, description: 'table, slot or ticket: every type shares the venue capacity' }) type?: string;
}

@ObjectType()
export class SlotAvailability {
  @Field({ description: 'HH:MM' }) time: string;
  @Field(() => Int, { description: 'Free places (0 once the slot has started)' }) available: number;
  @Field(() => Int) capacity: number;
}

@ObjectType()
export class DayAvailability {
  @Field() date: string;
  @Field(() => [SlotAvailability]) slots: SlotAvailability[];
}

@ObjectType()
export class VenueAvailability {
  @Field(() => ID) venueId: string;
  @Field(() => [DayAvailability]) availability: DayAvailability[];
}

export const VenuePage = PageType(Venue, 'Venue');
