import { coerceInputValue, DocumentNode, getNamedType, GraphQLInputType, GraphQLSchema, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType, Kind, OperationDefinitionNode, typeFromAST } from 'graphql';
import { FieldError } from '../core/errors';

/**
 * Where a request's values come from. Query strings (with the path) and multipart fields carry only
 * strings, so the engine reads numbers, booleans, lists and objects out of them; a JSON body carries
 * its own structure: a list must be an array and an object an object there (number and boolean
 * strings are still read as numbers and booleans, as before).
 */
export type ValueSource = 'query' | 'multipart' | 'json';

/** A type error: its variable, the path into it, and what is wrong. */
interface Misfit {
  variable: string;
  path: ReadonlyArray<string | number>;
  message: string;
}

export interface CoercedVariables {
  values: Record<string, unknown>;
  errors: FieldError[];
  /**
   * With errors: the variables without the fields in error, when what is left is still a complete
   * request. The adapter has the subgraphs check it (validate only), so that one answer names every
   * bad field: type errors here, the subgraphs' rules on the other fields.
   */
  rest?: Record<string, unknown>;
}

/**
 * The variables of one operation, coerced the way the REST surface needs: query-string and multipart
 * values arrive as strings (numbers, booleans, JSON-encoded objects and lists, comma-separated lists in
 * query strings), fields the operation does not know are dropped, and every type error is reported on
 * the field it concerns.
 */
export class OperationVariables {
  private readonly types = new Map<string, GraphQLInputType>();

  constructor(schema: GraphQLSchema, document: DocumentNode) {
    const operation = document.definitions.find((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
    for (const definition of operation?.variableDefinitions ?? []) {
      const type = typeFromAST(schema, definition.type as never) as GraphQLInputType | undefined;
      if (!type) throw new Error(`Unknown type of variable $${definition.variable.name.value}`);
      this.types.set(definition.variable.name.value, type);
    }
  }

  coerce(raw: Record<string, unknown>, source: ValueSource = 'query'): CoercedVariables {
    const loosened = new Map<string, unknown>();
    const misfits: Misfit[] = [];
    for (const [name, type] of this.types) {
      const misfit = (path: ReadonlyArray<string | number>, expected: string) => misfits.push({ variable: name, path, message: `${fieldName(name, path)} must be ${expected}` });
      let value = loosen(raw[name], type, source, misfit);
      if (value === undefined && isInputObjectType(getNamedType(type)) && isNonNullType(type)) value = {};
      loosened.set(name, value);
    }
    const { values, errors, failed } = this.coerced(loosened, misfits);
    if (errors.length === 0) return { values, errors };
    for (const { variable, path } of failed) prune(loosened, variable, path);
    const rest = this.coerced(loosened, []);
    return rest.errors.length === 0 ? { values, errors, rest: rest.values } : { values, errors };
  }

  /** GraphQL's coercion of the loosened values, after the type errors found while loosening them. */
  private coerced(loosened: Map<string, unknown>, misfits: Misfit[]): { values: Record<string, unknown>; errors: FieldError[]; failed: Misfit[] } {
    const values: Record<string, unknown> = {};
    const failed: Misfit[] = [...misfits];
    const named = new Set(misfits.map(({ variable, path }) => fieldName(variable, path)));
    for (const [name, type] of this.types) {
      const value = loosened.get(name);
      if (value === undefined) {
        if (isNonNullType(type) && !named.has(name)) failed.push({ variable: name, path: [], message: `${name} is required` });
        continue;
      }
      values[name] = coerceInputValue(value, type, (path, _invalid, error) => {
        const missing = /^Field "([^"]+)" of required type/.exec(error.message);
        const at = missing ? [...path, missing[1]] : path;
        if (!named.has(fieldName(name, at))) failed.push({ variable: name, path: at, message: missing ? `${fieldName(name, at)} is required` : error.message });
      });
    }
    return { values, errors: failed.map(({ variable, path, message }) => ({ field: fieldName(variable, path), message })), failed };
  }
}

/** A field as errors name it: `input`'s fields without the prefix (`address.postalCode`), other variables by name (`storeIds.0`). */
const fieldName = (variable: string, path: ReadonlyArray<string | number>): string => [...(variable === 'input' ? [] : [variable]), ...path].join('.') || variable;

/** Reports a value that is not of the kind its type needs (`a list`). */
type Report = (path: ReadonlyArray<string | number>, expected: string) => void;

function loosen(value: unknown, type: GraphQLInputType, source: ValueSource, report: Report, path: ReadonlyArray<string | number> = []): unknown {
  if (isNonNullType(type)) return loosen(value, type.ofType, source, report, path);
  if (value === undefined || value === null) return value;
  const field = (name: string | number) => [...path, name];
  if (isListType(type)) {
    const items = listItems(value, type, source);
    if (items === undefined) {
      report(path, source === 'json' ? 'a list (a JSON array)' : 'a JSON-encoded array');
      return undefined;
    }
    return items.map((item, index) => loosen(item, type.ofType, source, report, field(index)));
  }
  if (isInputObjectType(type)) {
    const object = typeof value === 'string' && source !== 'json' ? parseJson(value) : value;
    if (object === null || typeof object !== 'object' || Array.isArray(object)) return object;
    const fields = type.getFields();
    const kept: Record<string, unknown> = {};
    for (const [key, fieldValue] of Object.entries(object)) {
      if (Object.hasOwn(fields, key)) kept[key] = loosen(fieldValue, fields[key].type, source, report, field(key));
    }
    return kept;
  }
  if (typeof value !== 'string') return value;
  if (value === '' && !(isScalarType(type) && (type.name === 'String' || type.name === 'ID'))) return undefined;
  if (isScalarType(type)) {
    if ((type.name === 'Int' || type.name === 'Float') && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
    if (type.name === 'Boolean' && (value === 'true' || value === 'false')) return value === 'true';
  }
  if (isEnumType(type)) return value;
  return value;
}

/**
 * The items of a list, or undefined when the value cannot be one. A JSON body's list is an array. A
 * multipart list is a JSON-encoded array (Part 1 and 2), or the field repeated, or empty; a list of input
 * objects may be one object. A query string's list is a JSON-encoded array or comma-separated.
 */
function listItems(value: unknown, type: { ofType: GraphQLInputType }, source: ValueSource): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (source === 'json') return undefined;
  if (typeof value !== 'string') return [value];
  const ofObjects = isInputObjectType(getNamedType(type.ofType));
  const parsed = value.trimStart().startsWith('[') || ofObjects || source === 'multipart' ? parseJson(value) : undefined;
  if (Array.isArray(parsed)) return parsed;
  if (ofObjects) return parsed && typeof parsed === 'object' ? [parsed] : undefined;
  if (value === '') return [];
  return source === 'query' ? value.split(',') : undefined;
}

/** Takes a field in error out of its variable (a list with a bad item goes whole), so the rest can be checked. */
function prune(loosened: Map<string, unknown>, variable: string, path: ReadonlyArray<string | number>): void {
  let end = path.length;
  while (end > 0 && typeof path[end - 1] === 'number') end -= 1;
  if (end === 0) return void loosened.set(variable, undefined);
  let parent = loosened.get(variable);
  for (const key of path.slice(0, end - 1)) parent = parent && typeof parent === 'object' ? (parent as Record<string | number, unknown>)[key] : undefined;
  if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[path[end - 1]];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
