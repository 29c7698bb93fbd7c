import { ArrayMaxSize, getMetadataStorage, IsArray, IsOptional, IsString, Matches, MaxLength, ValidateBy, ValidationError, ValidationOptions, validate } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { FieldError, validationError } from './errors';

/**
 * class-validator's rules of a class, looked up once per class: its own lookup walks every class that
 * has rules (for the ones it inherits) on each `validate`, which on a read costs more than the checks
 * themselves. Rules are declared with their classes, once; should one be added later, every class is
 * looked up again. Lookups by validation groups are not kept (none of ours use groups).
 */
const RULES_KEPT = Symbol.for('loyalty.validation.rulesKeptPerClass');
function lookUpRulesOncePerClass(): void {
  const storage = getMetadataStorage() as ReturnType<typeof getMetadataStorage> & { [RULES_KEPT]?: true };
  if (storage[RULES_KEPT]) return;
  storage[RULES_KEPT] = true;
  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  const addRule = storage.addValidationMetadata.bind(storage);
  const rules = new Map<string, WeakMap<Function, ValidationMetadata[]>>();
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (groups?.length) return lookUp(target, schema, always, strictGroups, groups);
    const options = `${schema}|${always}|${strictGroups}`;
    let byClass = rules.get(options);
    if (!byClass) rules.set(options, (byClass = new WeakMap()));
    let found = byClass.get(target);
    if (!found) byClass.set(target, (found = lookUp(target, schema, always, strictGroups, groups)));
    return found;
  };
  storage.addValidationMetadata = (metadata) => {
    rules.clear();
    addRule(metadata);
  };
}
lookUpRulesOncePerClass();

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** The arguments of one field resolution, as type-graphql hands them to validateFn. */
interface ResolverArguments {
  args: Record<string, unknown>;
}

/** Field resolutions whose arguments were checked for unstorable text (a resolver validates each of its parameters). */
const textChecked = new WeakSet<ResolverArguments>();

/**
 * type-graphql's validateFn: refuses text PostgreSQL cannot store in any argument of the field (one
 * place for every string a client sends, REST or GraphQL, variable or literal), then runs the
 * class-validator rules of argument and input classes; either way a VALIDATION error with one entry
 * per failing field.
 */
export async function validateArgument(value: unknown, _type?: unknown, resolverData?: ResolverArguments): Promise<void> {
  if (resolverData && !textChecked.has(resolverData)) {
    textChecked.add(resolverData);
    const unstorable = Object.entries(resolverData.args).flatMap(([name, arg]) => unstorableTextErrors(arg, name === 'input' ? '' : name));
    if (unstorable.length > 0) throw validationError(unstorable);
  }
  const items = Array.isArray(value) ? value : [value];
  const errors: FieldError[] = [];
  for (const item of items) {
    if (item === null || typeof item !== 'object' || item.constructor === Object) continue;
    errors.push(...flatten(await validate(item, { forbidUnknownValues: false })));
  }
  if (errors.length > 0) throw validationError(errors);
}

const NUL = /\u0000/;
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with one string a client sent, if anything: PostgreSQL's text refuses NUL, its jsonb (and encodeURI) an unpaired surrogate. */
function unstorableTextProblem(text: string): string | undefined {
  if (NUL.test(text)) return 'must not contain the NUL character (U+0000)';
  if (UNPAIRED_SURROGATE.test(text)) return 'must be well-formed Unicode (it holds an unpaired surrogate, such as \\ud800)';
  return undefined;
}

/**
 * One field error for each string (or object key) in `value` holding a NUL character or an unpaired
 * surrogate, named by its path under `field` (`address.street`, `tags.2`; a key names its object).
 * Walks without recursion, so that no nesting depth can overflow the stack.
 */
export function unstorableTextErrors(value: unknown, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const pending: Array<[unknown, string]> = [[value, field]];
  const name = (parent: string, key: string | number) => (parent ? `${parent}.${key}` : String(key));
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, path] = next;
    if (typeof item === 'string') {
      const problem = unstorableTextProblem(item);
      if (problem) errors.push({ field: path, message: `${path || 'value'} ${problem}` });
    } else if (item !== null && typeof item === 'object') {
      const entries = Array.isArray(item) ? item.map((element, index): [number, unknown] => [index, element]) : Object.entries(item);
      for (const [key] of entries) {
        const problem = typeof key === 'string' ? unstorableTextProblem(key) : undefined;
        if (problem) errors.push({ field: path, message: `${path || 'value'} has a key that ${problem}` });
      }
      // Last first: the stack then yields them in order.
      for (const [key, element] of entries.reverse()) pending.push([element, name(path, key)]);
    }
  }
  return errors;
}

/** How deep arrays and objects may nest in what a client sends: far past any field's own shape, well inside every parser's stack and PostgreSQL's. */
export const MAX_NESTING = 32;

/** Whether arrays and objects in `value` nest deeper than `max` levels (counted without recursion). */
export function nestedDeeperThan(value: unknown, max = MAX_NESTING): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max) return true;
    for (const element of Object.values(item)) pending.push([element, depth + 1]);
  }
  return false;
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
