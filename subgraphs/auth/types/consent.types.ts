import { IsDate, IsEnum, IsOptional, IsString, IsUrl, IsUUID, MaxLength, MinLength } from 'class-validator';
import { ArgsType, Field, ID, InputType, ObjectType } from 'type-graphql';
import { LocaleArgs } from '../../../core/i18n';
import { ConsentType, ConsentVersion } from '../entities/consent-version';

@InputType()
export class PublishConsentVersionInput {
  @Field(() => ConsentType) @IsEnum(ConsentType) type: ConsentType;
  @Field() @IsString() @MinLength(1) @MaxLength(64) version: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(100_000) content_en?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(100_000) content_th?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(100_000) content_cn?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsUrl({ require_protocol: true }) @MaxLength(2048) url?: string;
  @Field(() => Date, { nullable: true, description: 'When the version takes effect; now when absent' })
  @IsOptional()
  @IsDate()
  effectiveAt?: Date;
}

@ArgsType()
export class ConsentListArgs extends LocaleArgs {
  @Field(() => ConsentType, { nullable: true }) @IsOptional() @IsEnum(ConsentType) type?: ConsentType;
}

@ArgsType()
export class AcceptConsentArgs {
  @Field(() => ID) @IsUUID() consentVersionId: string;
}

/** Where a member stands with one kind of consent. */
@ObjectType()
export class ConsentStatus {
  @Field(() => ConsentType) type: ConsentType;
  @Field(() => ConsentVersion, { nullable: true }) currentVersion: ConsentVersion | null;
  @Field(() => String, { nullable: true, description: 'The newest version the member accepted' }) acceptedVersion: string | null;
  @Field(() => Date, { nullable: true }) acceptedAt: Date | null;
  @Field({ description: 'Whether the member accepted the current version' }) hasAcceptedCurrent: boolean;
}
