import { getMetadataStorage as validationStorage, ValidationTypes } from 'class-validator';
import {
  DocumentNode,
  getNamedType,
  GraphQLArgument,
  GraphQLInputField,
  GraphQLInputType,
  GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  OperationDefinitionNode,
  typeFromAST,
  visit,
} from 'graphql';
import { getMetadataStorage as graphqlStorage } from 'type-graphql';
// Every domain's input and argument classes: their decorators fill the metadata read here, whatever else is loaded.
import '../../subgraphs/registry';
import { camelCase, snakeCase } from '../../core/rest/case';
import { InputSpelling } from '../../core/rest/route';
import { dateOrTimestamp, INT32, JsonSchema, nullable, object, patternOf } from '../../core/rest/json-schema';

/**
 * JSON Schema of what an operation's inputs accept, taken from where the server's own checks come from:
 * the supergraph's types (GraphQL `Int` is a 32-bit integer, a non-null field is required) and the
 * class-validator decorators of the subgraph class behind each input type or argument (`@IsDefined`,
 * `@MaxLength`, `@Min`, `@IsIn`, `@Matches`, `@IsOptional`, ...), which refuse what breaks them with a 400
 * naming the field. The classes are found through type-graphql's metadata, filled when the subgraphs'
 * type classes are loaded (by the registry, imported here).
 */

const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer', ...INT32 },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  JSONObject: { type: 'object' },
  DateTimeISO: { type: 'string', format: 'date-time' },
};

type Constraints = any[] | undefined;
/** class-validator rules as JSON Schema keywords. */
const KEYWORDS: Record<string, (constraints: Constraints) => JsonSchema> = {
  minLength: (constraints) => ({ minLength: constraints![0] }),
  maxLength: (constraints) => ({ maxLength: constraints![0] }),
  min: (constraints) => ({ minimum: constraints![0] }),
  max: (constraints) => ({ maximum: constraints![0] }),
  isIn: (constraints) => ({ enum: [...constraints![0]] }),
  isEnum: (constraints) => ({ enum: [...constraints![1]] }),
  matches: (constraints) => patternOf(constraints![0] as RegExp),
  isEmail: () => ({ format: 'email' }),
  isUuid: () => ({ format: 'uuid' }),
  // A date or a timestamp: `@IsISO8601` and the analytics periods take either.
  isIso8601: () => dateOrTimestamp(),
  isDayOrTimestamp: () => dateOrTimestamp(),
  arrayMinSize: (constraints) => ({ minItems: constraints![0] }),
  arrayMaxSize: (constraints) => ({ maxItems: constraints![0] }),
  isObject: () => ({ type: 'object' }),
  isLocaleTag: () => ({ minLength: 1, maxLength: 35 }),
};
/** Rules the GraphQL type already says (`isString` of a String), or that no JSON Schema keyword states exactly (decimals: the field's description says it). */
const SAID_BY_THE_TYPE = new Set(['isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'hasDecimals']);

/** What the class-validator rules of one property say. */
interface PropertyRules {
  /** Keywords of the value (of each item, for a list: `items`). */
  keywords: JsonSchema;
  items: JsonSchema;
  /** Left out, the field is refused (`@IsDefined`, or a check without `@IsOptional`). */
  required: boolean;
  /** Required unless another field is given (`@ValidateIf` with `@IsDefined`: one of a group). */
  requiredInGroup: boolean;
  /** null passes the rules (`@IsOptional`, `@ValidateIf`, or no rule at all). */
  acceptsNull: boolean;
}

const NO_RULES: PropertyRules = { keywords: {}, items: {}, required: false, requiredInGroup: false, acceptsNull: true };

function rulesOf(target: Function | undefined, property: string, where: string): PropertyRules {
  if (!target) return NO_RULES;
  const storage = validationStorage();
  const metadata = storage.getTargetValidationMetadatas(target, '', true, false).filter((rule) => rule.propertyName === property);
  if (metadata.length === 0) return NO_RULES;
  const conditional = metadata.some((rule) => rule.type === ValidationTypes.CONDITIONAL_VALIDATION && rule.name !== 'isOptional');
  const optional = metadata.some((rule) => rule.type === ValidationTypes.CONDITIONAL_VALIDATION && rule.name === 'isOptional');
  const defined = metadata.some((rule) => rule.type === ValidationTypes.IS_DEFINED);
  const checks = metadata.filter((rule) => rule.type === ValidationTypes.CUSTOM_VALIDATION);
  const nested = metadata.some((rule) => rule.type === ValidationTypes.NESTED_VALIDATION);
  const keywords: JsonSchema = {};
  const items: JsonSchema = {};
  for (const rule of checks) {
    const name = rule.name ?? storage.getTargetValidatorConstraints(rule.constraintCls)[0]?.name ?? '';
    if (SAID_BY_THE_TYPE.has(name)) continue;
    const keyword = KEYWORDS[name];
    if (!keyword) throw new Error(`OpenAPI: no JSON Schema for the class-validator rule ${name} of ${where}: add it to rest-adapter/v1/openapi-inputs.ts`);
    Object.assign(rule.each ? items : keywords, keyword(rule.constraints));
  }
  const unconditional = !conditional && !optional;
  return {
    keywords,
    items,
    required: unconditional && (defined || checks.length > 0),
    requiredInGroup: conditional && defined,
    acceptsNull: conditional || (!defined && (optional || (checks.length === 0 && !nested))),
  };
}

/** The JSON Schema of a value of this GraphQL type (nullability aside), with the keywords of its rules. */
function schemaOfType(type: GraphQLInputType, rules: PropertyRules, spelling: InputSpelling): JsonSchema {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return { type: 'array', items: schemaOfValue(inner.ofType, { ...NO_RULES, keywords: rules.items }, spelling), ...rules.keywords };
  return schemaOfValue(inner, rules, spelling);
}

function schemaOfValue(type: GraphQLInputType, rules: PropertyRules, spelling: InputSpelling): JsonSchema {
  const named = getNamedType(type);
  if (isInputObjectType(named)) return { ...inputObjectSchema(named.name, Object.values(named.getFields()), spelling), ...rules.keywords };
  const base = isEnumType(named) ? { type: 'string', enum: named.getValues().map((value) => value.value) } : isScalarType(named) ? (SCALARS[named.name] ?? {}) : {};
  return narrowed(base, rules.keywords);
}

/** The type's keywords with the rules' over them; bounds only ever narrow (an Int stays inside 32 bits). */
function narrowed(base: JsonSchema, keywords: JsonSchema): JsonSchema {
  const schema = { ...base, ...keywords };
  if (typeof base.minimum === 'number' && typeof keywords.minimum === 'number') schema.minimum = Math.max(base.minimum, keywords.minimum);
  if (typeof base.maximum === 'number' && typeof keywords.maximum === 'number') schema.maximum = Math.min(base.maximum, keywords.maximum);
  return schema;
}

/** The class behind a GraphQL input type, for its rules. */
function inputClass(typeName: string): Function | undefined {
  return graphqlStorage().inputTypes.find((input) => input.name === typeName)?.target;
}

/** One field or argument: its schema (nullable where null passes), whether it is required or one of a required group. */
interface Described {
  name: string;
  schema: JsonSchema;
  required: boolean;
  requiredInGroup: boolean;
}

function describeField(field: GraphQLInputField | GraphQLArgument, target: Function | undefined, where: string, spelling: InputSpelling, nonNull = isNonNullType(field.type)): Described {
  const rules = rulesOf(target, field.name, `${where}.${field.name}`);
  const schema: JsonSchema = schemaOfType(field.type, rules, spelling);
  if (field.description) schema.description = field.description;
  if (field.defaultValue !== undefined) schema.default = field.defaultValue;
  const name = snakeCase(spelling.rename?.[field.name] ?? field.name);
  return {
    name,
    schema: !nonNull && rules.acceptsNull ? nullable(schema) : schema,
    // A default fills a field left out before any rule sees it.
    required: field.defaultValue === undefined && (nonNull || rules.required),
    requiredInGroup: rules.requiredInGroup,
  };
}

/** An object of described fields: `required` those that must be given; a group of which one must be given as `anyOf`. */
function objectOf(fields: Described[]): JsonSchema {
  const group = fields.filter((field) => field.requiredInGroup);
  const alternatives = group.length > 1 ? { anyOf: group.map((field) => ({ required: [field.name], properties: { [field.name]: withoutNull(field.schema) } })) } : {};
  return object(
    Object.fromEntries(fields.map((field) => [field.name, field.schema])),
    fields.filter((field) => field.required || (field.requiredInGroup && group.length === 1)).map((field) => field.name),
    alternatives,
  );
}

const withoutNull = (schema: JsonSchema): JsonSchema => (Array.isArray(schema.anyOf) && schema.anyOf.length === 2 && (schema.anyOf[1] as JsonSchema).type === 'null' ? (schema.anyOf[0] as JsonSchema) : schema);

function inputObjectSchema(typeName: string, fields: GraphQLInputField[], spelling: InputSpelling): JsonSchema {
  const target = inputClass(typeName);
  return objectOf(fields.filter((field) => !spelling.omit?.includes(field.name)).map((field) => describeField(field, target, typeName, spelling)));
}

/** The JSON Schema of the body of a route that forwards it as the operation's `$input`, as the caller spells it. */
export function inputBodySchema(type: GraphQLInputType, spelling: InputSpelling = {}): JsonSchema {
  const named = getNamedType(type);
  if (!isInputObjectType(named)) throw new Error(`OpenAPI: $input of type ${named.name} is no input object`);
  return inputObjectSchema(named.name, Object.values(named.getFields()), spelling);
}

/** Where a variable of an operation goes: the root field and its argument. */
interface VariableUse {
  rootType: 'query' | 'mutation';
  field: string;
  argument: string;
}

function variableUses(document: DocumentNode): Map<string, VariableUse> {
  const operation = document.definitions.find((node): node is OperationDefinitionNode => node.kind === Kind.OPERATION_DEFINITION)!;
  const uses = new Map<string, VariableUse>();
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    for (const argument of selection.arguments ?? []) {
      visit(argument.value, {
        Variable: (node) => void uses.set(node.name.value, { rootType: operation.operation as 'query' | 'mutation', field: selection.name.value, argument: argument.name.value }),
      });
    }
  }
  return uses;
}

/** The `@Args()` class of a root field's resolver, whose properties carry its arguments' rules. */
function argumentsClass(rootType: 'query' | 'mutation', field: string): Function | undefined {
  const storage = graphqlStorage();
  const resolver = (rootType === 'query' ? storage.queries : storage.mutations).find((handler) => handler.schemaName === field);
  if (!resolver) return undefined;
  const args = storage.params.find((param) => param.target === resolver.target && param.methodName === resolver.methodName && param.kind === 'args');
  return args && 'getType' in args && args.getType ? (args.getType() as Function) : undefined;
}

/** An operation's variable under the name the caller sends it by: its type (non-null: required) and the rules of the argument it is given to. */
function describeVariable(document: DocumentNode, apiSchema: GraphQLSchema, name: string, variable: string): Described | undefined {
  const operation = document.definitions.find((node): node is OperationDefinitionNode => node.kind === Kind.OPERATION_DEFINITION)!;
  const definition = operation.variableDefinitions?.find((node) => node.variable.name.value === variable);
  const use = variableUses(document).get(variable);
  if (!definition || !use) return undefined;
  const root = use.rootType === 'query' ? apiSchema.getQueryType() : apiSchema.getMutationType();
  const argument = root!.getFields()[use.field].args.find((arg) => arg.name === use.argument)!;
  const variableType = typeFromAST(apiSchema, definition.type as never) as GraphQLInputType;
  const described = describeField({ ...argument, type: variableType }, argumentsClass(use.rootType, use.field), `${use.field}(${use.argument})`, {}, isNonNullType(variableType) || isNonNullType(argument.type));
  return { ...described, name };
}

/**
 * The JSON Schema of a body whose fields are the operation's own variables (`{reward_id: 'id'}`: the
 * body's `reward_id` is `$id`), each described by the variable's type and the rules of its argument.
 */
export function variablesBodySchema(document: DocumentNode, apiSchema: GraphQLSchema, fields: Record<string, string>): JsonSchema {
  return objectOf(
    Object.entries(fields).map(([bodyField, variable]) => {
      const described = describeVariable(document, apiSchema, bodyField, variable);
      if (!described) throw new Error(`OpenAPI: the operation has no variable $${variable} given to a root field (body field ${bodyField})`);
      return described;
    }),
  );
}

/**
 * A query parameter as the operation's variable of its name (`date_from`: `$dateFrom`) checks it: the
 * variable's type and its argument's rules, under what the route's doc writes of it (descriptions, the
 * spelling of enums the route maps). Only the doc's, for a parameter no variable takes as it is.
 */
export function queryParameterSchema(document: DocumentNode, apiSchema: GraphQLSchema, name: string, written: JsonSchema): JsonSchema {
  const described = describeVariable(document, apiSchema, name, camelCase(name));
  return described ? { ...withoutNull(described.schema), ...written } : written;
}
