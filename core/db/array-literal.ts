/**
 * A PostgreSQL array literal (`{"a","b"}`) for one `?::text[]` or `?::uuid[]` parameter: MikroORM's
 * `execute` spreads a JavaScript array into a list of parameters, so arrays go in as one literal.
 */
export const arrayLiteral = (values: readonly string[]): string => `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
