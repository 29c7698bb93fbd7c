import { IsISO8601, IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, ID, InputType } from 'type-graphql';
import { PageArgs } from '../../../core/pagination';

@InputType({ description: 'A kind of custom event and the attributes its events carry' })
export class CustomEventTypeInput {
  @Field({ description: 'lowercase letters, digits and _, starting with a letter, at most 64' }) name: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(2000) description?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: '{<name>: {type: string|number|boolean, required}}' }) attributes?: Record<string, unknown> | null;
}

@InputType({ description: 'A change of a custom event type: absent fields are kept; attributes are replaced whole' })
export class CustomEventTypePatch {
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(2000) description?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) attributes?: Record<string, unknown> | null;
}

@ArgsType()
export class EventTypeNameArgs {
  @Field({ description: 'The type name' }) @IsString() @MinLength(1) @MaxLength(64) name: string;
}

@InputType({ description: 'Something a member did, as the retailer reports it' })
export class CustomEventInput {
  @Field({ description: 'A declared custom event type' }) @IsString() @MinLength(1) @MaxLength(64) type: string;
  @Field(() => ID) @IsUUID('all', { message: 'customerId must be a customer id' }) customerId: string;
  @Field({ description: "The sender's own id: the same id again answers the first event" }) @IsString() @MinLength(1) @MaxLength(256) eventId: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601, not in the future; now unless given' }) @IsOptional() @IsISO8601({ strict: true }) occurredAt?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'As its type declares them' }) attributes?: Record<string, unknown> | null;
}

@ArgsType()
export class CustomEventListArgs extends PageArgs {
  @Field(() => ID) @IsUUID('all', { message: 'memberId must be a member id' }) memberId: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(64) type?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsISO8601({ strict: true }) dateFrom?: string;
  @Field(() => String, { nullable: true, description: 'A bare date covers its whole day' }) @IsOptional() @IsISO8601({ strict: true }) dateTo?: string;
}
