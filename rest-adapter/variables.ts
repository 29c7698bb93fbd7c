import { coerceInputValue, DocumentNode, getNamedType, GraphQLInputType, GraphQLSchema, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType, Kind, OperationDefinitionNode, typeFromAST } from 'graphql';
import { FieldError } from '../core/errors';

/**
 * The variables of one operation, coerced the way the REST surface needs: query-string and multipart
 * values arrive as strings (numbers, booleans, JSON-encoded objects, comma-separated lists), fields
 * the operation does not know are dropped, and every type error is reported on the field it concerns.
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

  coerce(raw: Record<string, unknown>): { values: Record<string, unknown>; errors: FieldError[] } {
    const values: Record<string, unknown> = {};
    const errors: FieldError[] = [];
    for (const [name, type] of this.types) {
      const named = getNamedType(type);
      let value = loosen(raw[name], type);
      if (value === undefined && isInputObjectType(named) && isNonNullType(type)) value = {};
      if (value === undefined) {
        if (isNonNullType(type)) errors.push({ field: name, message: `${name} is required` });
        continue;
      }
      values[name] = coerceInputValue(value, type, (path, _invalid, error) => {
        const missing = /^Field "([^"]+)" of required type/.exec(error.message);
        const segments = [...(name === 'input' ? [] : [name]), ...path, ...(missing ? [missing[1]] : [])];
        const field = segments.join('.') || name;
        errors.push({ field, message: missing ? `${field} is required` : error.message });
      });
    }
    return { values, errors };
  }
}

function loosen(value: unknown, type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return loosen(value, type.ofType);
  if (value === undefined || value === null) return value;
  if (isListType(type)) {
    // Multipart sends a list as one JSON-encoded array (`["a","b"]`); a bad list of input objects is reported on the list itself.
    const parsed = typeof value === 'string' && value.trimStart().startsWith('[') ? parseJson(value) : undefined;
    if (Array.isArray(parsed)) return parsed.map((item) => loosen(item, type.ofType));
    if (typeof value === 'string' && isInputObjectType(getNamedType(type))) return loosen(parseJson(value), type.ofType);
    const items = typeof value === 'string' ? (value === '' ? [] : value.split(',')) : Array.isArray(value) ? value : [value];
    return items.map((item) => loosen(item, type.ofType));
  }
  if (isInputObjectType(type)) {
    const object = typeof value === 'string' ? parseJson(value) : value;
    if (object === null || typeof object !== 'object' || Array.isArray(object)) return object;
    const fields = type.getFields();
    const kept: Record<string, unknown> = {};
    for (const [key, fieldValue] of Object.entries(object)) {
      if (fields[key]) kept[key] = loosen(fieldValue, fields[key].type);
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
