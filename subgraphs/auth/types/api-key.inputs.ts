import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength } from 'class-validator';
import { API_SCOPES } from '../../../core/auth/scopes';
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs } from '../../../core/pagination';

/** The highest hourly limit a key may be given: a bound against a typo, not a product limit. */
const MAX_KEY_RATE_LIMIT_PER_HOUR = 10_000_000;

@InputType()
export class GenerateApiKeyInput {
  @Field() @IsString() @MinLength(1) @MaxLength(256) name: string;
  @Field(() => ID) @IsUUID() roleId: string;
  @Field(() => Float, { nullable: true, description: 'Lifetime in milliseconds; without it the key does not expire' })
  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(10 * 365 * 24 * 3600 * 1000)
  expiredIn?: number;

  @Field(() => [String], { nullable: true, description: 'v1 scopes: some of read, write, admin, analytics (default read); the role still bounds them' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(API_SCOPES.length)
  @IsIn(API_SCOPES, { each: true })
  scopes?: string[];

  @Field(() => Int, { nullable: true, description: 'The key\'s own hourly request limit (enterprise tier); without it the premium tier applies' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_KEY_RATE_LIMIT_PER_HOUR)
  rateLimitPerHour?: number;
}

@ArgsType()
export class ApiKeyExchangeArgs {
  @Field() @IsString() @MinLength(1) @MaxLength(512) apiKey: string;
}

@ObjectType()
export class CreatedApiKey {
  @Field(() => ID) id: string;
  @Field() name: string;
  @Field({ description: 'The key itself: shown only in this response' }) apiKey: string;
  @Field(() => ID) roleId: string;
  @Field(() => [String]) scopes: string[];
  @Field(() => Int, { nullable: true }) rateLimitPerHour: number | null;
  @Field(() => Date, { nullable: true }) expiresAt: Date | null;
  @Field() createdAt: Date;
}

@ArgsType()
export class ApiKeyListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: 'Only the keys this staff member created' }) @IsOptional() @IsUUID() createdById?: string;
}

/** The staff member who created an API key, as the key lists show it. */
@ObjectType()
export class ApiKeyCreator {
  @Field(() => ID) id: string;
  @Field() email: string;
  @Field() firstname: string;
  @Field() lastname: string;
  @Field(() => Date, { nullable: true, description: 'Set when the staff member was deleted (their keys were revoked then)' })
  deletedAt: Date | null;
}
