import { ArgsType, Field, ID, InputType, Int } from 'type-graphql';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageArgs, PageType } from '../../../core/pagination';
import { Booking } from '../entities/booking';

/** Fields are checked by the service, all at once, hence all optional here. */
@InputType({ description: 'A booking to make' })
export class CreateBookingInput {
  @Field(() => ID, { nullable: true }) customerId?: string | null;
  @Field(() => ID, { nullable: true }) venueId?: string | null;
  @Field(() => String, { nullable: true, description: 'table, slot or ticket' }) type?: string | null;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: the service day' }) date?: string | null;
  @Field(() => String, { nullable: true, description: 'HH:MM: a slot start' }) time?: string | null;
  @Field(() => Int, { nullable: true, description: 'Minutes (default the venue slot)' }) duration?: number | null;
  @Field(() => Int, { nullable: true }) guests?: number | null;
  @Field(() => String, { nullable: true }) specialRequests?: string | null;
}

@InputType({ description: 'What to change of a booking (capacity is checked again)' })
export class UpdateBookingInput {
  @Field(() => String, { nullable: true }) date?: string | null;
  @Field(() => String, { nullable: true }) time?: string | null;
  @Field(() => Int, { nullable: true }) duration?: number | null;
  @Field(() => Int, { nullable: true }) guests?: number | null;
  @Field(() => String, { nullable: true }) specialRequests?: string | null;
}

@ArgsType()
export class BookingIdArgs {
  @Field(() => ID) id: string;
}

@ArgsType()
export class BookingIdempotencyArgs {
  @Field(() => String, { nullable: true, description: 'A repeat with the same key and body returns the first result' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  idempotencyKey?: string;
}

@ArgsType()
export class BookingListArgs extends PageArgs {
  @Field(() => ID, { nullable: true }) customerId?: string;
  @Field(() => ID, { nullable: true }) venueId?: string;
  @Field(() => String, { nullable: true }) status?: string;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: service days from' }) dateFrom?: string;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: service days to (inclusive)' }) dateTo?: string;
}

export const BookingPage = PageType(Booking, 'Booking');
