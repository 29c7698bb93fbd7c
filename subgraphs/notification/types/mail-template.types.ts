import { IsEnum, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { GraphQLJSON } from 'graphql-scalars';
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Locale } from '../../../core/i18n';
import { PageType } from '../../../core/pagination';
import { given } from '../../../core/validation';
import { MailContentType, MailTemplate } from '../entities/mail-template';

export const MailTemplatePage = PageType(MailTemplate, 'MailTemplate');

const MAX_SUBJECT = 255;
const MAX_CONTENT = 100_000;
/** An event key: letters, digits, dots, dashes and underscores (`auth.password-reset`). */
const EVENT_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const EVENT_KEY_MESSAGE = 'event must be letters, digits, dots, dashes or underscores';

/** POST /mail-templates: a name, an event, and at least the English subject and content. */
@InputType()
export class CreateMailTemplateInput {
  @Field() @IsString() @MinLength(1) @MaxLength(255) name: string;
  @Field(() => String, { nullable: true, description: '1 unless given' }) @IsOptional() @IsString() @MinLength(1) @MaxLength(50) version?: string;
  @Field() @IsString() @MaxLength(100) @Matches(EVENT_KEY, { message: EVENT_KEY_MESSAGE }) event: string;
  @Field() @IsString() @MinLength(1) @MaxLength(MAX_SUBJECT) subject_en: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_SUBJECT) subject_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_SUBJECT) subject_cn?: string | null;
  @Field() @IsString() @MinLength(1) @MaxLength(MAX_CONTENT) content_en: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_CONTENT) content_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_CONTENT) content_cn?: string | null;
  @Field(() => MailContentType, { nullable: true, description: 'html unless given' }) @IsOptional() @IsEnum(MailContentType) contentType?: MailContentType;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(255) defaultSenderId?: string | null;
}

/** PUT /mail-templates/:id: the given fields change; the required ones refuse null, the optional ones are cleared by it. */
@InputType()
export class UpdateMailTemplateInput {
  @Field(() => String, { nullable: true }) @ValidateIf(given('name')) @IsString() @MinLength(1) @MaxLength(255) name?: string;
  @Field(() => String, { nullable: true }) @ValidateIf(given('version')) @IsString() @MinLength(1) @MaxLength(50) version?: string;
  @Field(() => String, { nullable: true }) @ValidateIf(given('event')) @IsString() @MaxLength(100) @Matches(EVENT_KEY, { message: EVENT_KEY_MESSAGE }) event?: string;
  @Field(() => String, { nullable: true }) @ValidateIf(given('subject_en')) @IsString() @MinLength(1) @MaxLength(MAX_SUBJECT) subject_en?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_SUBJECT) subject_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_SUBJECT) subject_cn?: string | null;
  @Field(() => String, { nullable: true }) @ValidateIf(given('content_en')) @IsString() @MinLength(1) @MaxLength(MAX_CONTENT) content_en?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_CONTENT) content_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_CONTENT) content_cn?: string | null;
  @Field(() => MailContentType, { nullable: true }) @ValidateIf(given('contentType')) @IsEnum(MailContentType) contentType?: MailContentType;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(255) defaultSenderId?: string | null;
}

/** GET /mail-templates: newest first, filtered. */
@ArgsType()
export class MailTemplateListArgs {
  @Field(() => Int, { defaultValue: 1 }) @IsInt() @Min(1) page: number = 1;
  @Field(() => Int, { defaultValue: 10 }) @IsInt() @Min(1) @Max(100) limit: number = 10;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(100) event?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(50) version?: string;
  @Field(() => String, { nullable: true, description: 'Part of the name or a subject, in any language' }) @IsOptional() @IsString() @MaxLength(255) search?: string;
}

/** A mail template by id: any string; one that names no live template is 404. */
@ArgsType()
export class MailTemplateIdArgs {
  @Field(() => ID) @IsString() @MinLength(1) @MaxLength(256) id: string;
}

/** The variables a template is rendered with, and the language. */
@InputType()
export class RenderMailInput {
  @Field(() => Locale, { nullable: true, description: 'en unless given; a language without text falls back to English' }) @IsOptional() @IsEnum(Locale) locale?: Locale;
  @Field(() => GraphQLJSON, { nullable: true, description: 'The values of the {{variable}} placeholders' }) @IsOptional() @IsObject() variables?: Record<string, unknown> | null;
}

/** A template chosen by its event (the newest live one, or the given version). */
@ArgsType()
export class RenderMailTemplateArgs {
  @Field() @IsString() @MaxLength(100) event: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(50) version?: string;
  @Field(() => Locale, { nullable: true }) @IsOptional() @IsEnum(Locale) locale?: Locale;
  @Field(() => GraphQLJSON, { nullable: true }) @IsOptional() @IsObject() variables?: Record<string, unknown> | null;
}

/** A rendered mail: subject and content in one language, variables filled in. */
@ObjectType()
export class RenderedMail {
  @Field(() => ID) templateId: string;
  @Field() event: string;
  @Field() version: string;
  @Field(() => Locale, { description: 'The language of the texts (English when the one asked for has none)' }) locale: Locale;
  @Field() subject: string;
  @Field() content: string;
  @Field(() => MailContentType) contentType: MailContentType;
  @Field(() => String, { nullable: true }) defaultSenderId: string | null;
}
