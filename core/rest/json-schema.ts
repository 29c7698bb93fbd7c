/**
 * JSON Schema (2020-12, as OpenAPI 3.1 uses it) builders, for the v1 resources a domain's surface declares
 * (`components`) and its route docs. A component is referred to by name (`ref('Reward')`), so that no domain
 * imports another's components; `npm run schema:check` fails on a name no surface declares.
 */
export type JsonSchema = Record<string, unknown>;

export const string = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
export const integer = (extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', ...extra });
/** The bounds of GraphQL's `Int`: a signed 32-bit integer. */
export const INT32 = { format: 'int32', minimum: -2147483648, maximum: 2147483647 };
export const number = (extra: JsonSchema = {}): JsonSchema => ({ type: 'number', ...extra });
export const boolean = (extra: JsonSchema = {}): JsonSchema => ({ type: 'boolean', ...extra });
export const oneOf = (...values: string[]): JsonSchema => ({ type: 'string', enum: values });
export const timestamp = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', format: 'date-time', ...extra });
export const date = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', format: 'date', ...extra });
export const id = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
export const arrayOf = (items: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: 'array', items, ...extra });
export const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
/** A regular expression as a JSON Schema `pattern`, which has no flags: one that needs a flag is left to the description. */
export const patternOf = (pattern: RegExp): JsonSchema => (pattern.flags.replace('u', '') === '' ? { pattern: pattern.source } : {});
/** A string matching the expression the server checks it with. */
export const matching = (pattern: RegExp, extra: JsonSchema = {}): JsonSchema => string({ ...patternOf(pattern), ...extra });
/** Not blank: a character other than white space (what `value.trim()` checks). */
export const NOT_BLANK = { minLength: 1, pattern: '\\S' };
/** A date `YYYY-MM-DD` or an ISO 8601 timestamp. */
export const dateOrTimestamp = (extra: JsonSchema = {}): JsonSchema => string({ anyOf: [{ format: 'date' }, { format: 'date-time' }], ...extra });
/** The component of this name, declared by some domain's surface (or the engine's Error and Pagination). */
export const ref = (component: string): JsonSchema => ({ $ref: `#/components/schemas/${component}` });
/** An object of these properties; `required` names those always present (answers) or needed (requests). */
export const object = (properties: Record<string, JsonSchema>, required: string[] = [], extra: JsonSchema = {}): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required } : {}),
  ...extra,
});
/** Every property present in answers (possibly null). */
export const record = (properties: Record<string, JsonSchema>): JsonSchema => object(properties, Object.keys(properties));

/** A date or timestamp in a query string (`date_from`, `date_to`). */
export const dateQuery = (description: string): JsonSchema => dateOrTimestamp({ description, examples: ['2026-11-01', '2026-11-23T06:36:33Z'] });
