import { ArrayMaxSize, IsArray, IsOptional, IsString, Matches, MaxLength, ValidateBy, ValidationError, ValidationOptions, validate } from 'class-validator';
import { FieldError, validationError } from './errors';

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/**
 * type-graphql's validateFn: runs the class-validator rules of argument and input classes and
 * turns their failures into a VALIDATION error with one entry per failing field.
 */
export async function validateArgument(value: unknown): Promise<void> {
  const items = Array.isArray(value) ? value : [value];
  const errors: FieldError[] = [];
  for (const item of items) {
    if (item === null || typeof item !== 'object' || item.constructor === Object) continue;
    errors.push(...flatten(await validate(item, { forbidUnknownValues: false })));
  }
  if (errors.length > 0) throw validationError(errors);
}

/** The largest magnitude an exact amount may have: well inside numeric(20, 2) and exactly representable to the cent. */
export const MAX_EXACT_AMOUNT = 1e13;

/**
 * A finite number with at most `places` decimals that the database stores exactly. Decided by
 * rounding rather than by the digits after a dot: `1e-7` has no dot, yet would be stored as 0.
 */
export function HasDecimals(places: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'hasDecimals',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= MAX_EXACT_AMOUNT && Number(value.toFixed(places)) === value,
        defaultMessage: (args) => `${args?.property} must be a number with at most ${places} decimal places`,
      },
    },
    options,
  );
}

/** Points and money: a finite number with at most 2 decimals. */
export const HasTwoDecimals = (options?: ValidationOptions): PropertyDecorator => HasDecimals(2, options);

/** For `ValidateIf`: validate the field only when the client sent it (null included). */
export const given = (field: string) => (object: Record<string, unknown>) => object[field] !== undefined;

/** An absolute http(s) URL, whatever its host and port (stored uploads live under PUBLIC_URL). */
const HTTP_URL = /^https?:\/\/[^\s/?#]+[^\s]*$/i;

/** A link a client may render or fetch: http or https only, never `javascript:` or `data:`. */
export const IsHttpUrl = (options?: ValidationOptions): PropertyDecorator =>
  Matches(HTTP_URL, { message: (args) => `${args.property} must be an http or https URL`, ...options });

/** A list of at most `max` plain-string ids (stores, tiers, categories), each at most 256 characters. */
export const IsIdList =
  (max: number): PropertyDecorator =>
  (target, property) => {
    for (const decorator of [IsArray(), ArrayMaxSize(max), IsString({ each: true }), MaxLength(256, { each: true })]) decorator(target, property);
  };

/** An optional list of at most `max` URLs of stored uploads (the REST adapter fills it from a multipart field). */
export const AreUploadedUrls =
  (max: number): PropertyDecorator =>
  (target, property) => {
    for (const decorator of [IsOptional(), IsArray(), ArrayMaxSize(max), IsHttpUrl({ each: true }), MaxLength(2048, { each: true })]) decorator(target, property);
  };

/** A BCP 47 language tag (`en`, `th-TH`, `zh-Hans-CN`), as `Intl` understands it, at most 35 characters. */
export function IsLocaleTag(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isLocaleTag',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string' || value.length === 0 || value.length > 35) return false;
          try {
            return Intl.getCanonicalLocales(value).length === 1;
          } catch {
            return false;
          }
        },
        defaultMessage: (args) => `${args?.property} must be a BCP 47 locale tag such as en, th or zh-CN`,
      },
    },
    options,
  );
}
