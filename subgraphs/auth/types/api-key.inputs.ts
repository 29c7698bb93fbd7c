import { IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType, ObjectType } from 'type-graphql';

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
  @Field(() => Date, { nullable: true }) expiresAt: Date | null;
  @Field() createdAt: Date;
}
