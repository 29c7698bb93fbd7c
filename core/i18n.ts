import { IsEnum, IsOptional } from 'class-validator';
import { ArgsType, Field } from 'type-graphql';
import { EnumValue, graphqlEnum } from './graphql/enum';

export const Locale = graphqlEnum('Locale', ['en', 'th', 'cn'], 'Language of localized text: English, Thai, Chinese');
export type Locale = EnumValue<typeof Locale>;

export const LOCALES = Object.values(Locale);

/**
 * The `locale` projection of localized triples (`<name>_en`, `<name>_th`, `<name>_cn`): without a
 * locale every language is returned; with one, only that language is kept (falling back to English
 * when it is empty) and the other two are null.
 */
export function projectLocale<T extends object>(record: T, names: string[], locale?: Locale): T {
  if (!locale) return record;
  const projected = Object.assign(Object.create(Object.getPrototypeOf(record)), record) as Record<string, unknown>;
  const source = record as unknown as Record<string, unknown>;
  for (const name of names) {
    const value = source[`${name}_${locale}`] || source[`${name}_en`];
    for (const other of LOCALES) projected[`${name}_${other}`] = null;
    projected[`${name}_${locale}`] = value ?? null;
  }
  return projected as T;
}

/** The `locale` argument of queries that return localized text. */
@ArgsType()
export class LocaleArgs {
  @Field(() => Locale, { nullable: true }) @IsOptional() @IsEnum(Locale) locale?: Locale;
}
