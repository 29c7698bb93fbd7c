import { IsBoolean, IsOptional, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { ArgsType, Field, InputType } from 'type-graphql';
import { IdArgs } from '../graphql/id-args';
import { PageArgs } from '../pagination';
import { given } from '../validation';

/**
 * The localized fields of catalog writes, declared once. A create requires `name_en` (and, for the
 * described catalogs that need it, `description_en`); an update keeps what is absent, clears an
 * optional text sent as null, and refuses null for a required one.
 */
@InputType('CatalogNameCreate')
export abstract class NameCreateInput {
  @Field() @IsString() @MinLength(1) @MaxLength(256) name_en: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) name_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) name_cn?: string | null;
}

@InputType('CatalogNameUpdate')
export abstract class NameUpdateInput {
  @Field(() => String, { nullable: true }) @ValidateIf(given('name_en')) @IsString() @MinLength(1) @MaxLength(256) name_en?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) name_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) name_cn?: string | null;
}

/** Optional descriptions (segments, shop rules). */
@InputType('CatalogDescriptionWrite')
export abstract class DescribedWriteInput extends NameCreateInput {
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(5000) description_en?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(5000) description_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(5000) description_cn?: string | null;
}

@InputType('CatalogDescriptionUpdate')
export abstract class DescribedUpdateInput extends NameUpdateInput {
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(5000) description_en?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(5000) description_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(5000) description_cn?: string | null;
}

/** A required English description (tiers, badges). */
@InputType('CatalogRequiredDescriptionCreate')
export abstract class RequiredDescriptionCreateInput extends NameCreateInput {
  @Field() @IsString() @MinLength(1) @MaxLength(5000) description_en: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(5000) description_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(5000) description_cn?: string | null;
}

@InputType('CatalogRequiredDescriptionUpdate')
export abstract class RequiredDescriptionUpdateInput extends NameUpdateInput {
  @Field(() => String, { nullable: true }) @ValidateIf(given('description_en')) @IsString() @MinLength(1) @MaxLength(5000) description_en?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(5000) description_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(5000) description_cn?: string | null;
}

/** A catalog list: paging and a search in the names of every language. */
@ArgsType()
export class CatalogSearchArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Part of a name, in any language' }) @IsOptional() @IsString() @MaxLength(256) search?: string;
}

/** A catalog list that shows inactive and soft-deleted records only when asked. */
@ArgsType()
export class CatalogListArgs extends CatalogSearchArgs {
  @Field(() => Boolean, { defaultValue: false, description: 'Also inactive records' }) @IsBoolean() includeInActive: boolean = false;
  @Field(() => Boolean, { defaultValue: false, description: 'Also soft-deleted records' }) @IsBoolean() includeDeletedAt: boolean = false;
}

/** Activates or deactivates one catalog record by id. */
@ArgsType()
export class SetActiveArgs extends IdArgs {
  @Field(() => Boolean) @IsBoolean() isActive: boolean;
}
