import type { ApolloServerPlugin } from '@apollo/server';
import { DocumentNode, GraphQLError, GraphQLSchema, isNonNullType, Kind, OperationDefinitionNode, TypeInfo, ValidationContext } from 'graphql';
import { FieldError } from '../core/errors';
import { MAX_NESTING, nestedDeeperThan } from '../core/validation';

/** What the gateway reads of a request besides its document. */
export interface RequestShape {
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

/** A variable declared nullable but used where a non-null argument or input field has a default. */
interface DefaultedUse {
  variable: string;
  /** The variable's own default is `null`. */
  nullByDefault: boolean;
}

/** The defaulted uses of each operation, found once per parsed document (Apollo's document cache and ours keep the same node). */
const defaultedUses = new WeakMap<OperationDefinitionNode, DefaultedUse[]>();

function defaultedUsesOf(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): DefaultedUse[] {
  let uses = defaultedUses.get(operation);
  if (uses) return uses;
  const context = new ValidationContext(schema, document, new TypeInfo(schema), () => undefined);
  const nullable = new Map((operation.variableDefinitions ?? []).filter((definition) => definition.type.kind !== Kind.NON_NULL_TYPE).map((definition) => [definition.variable.name.value, definition]));
  uses = context
    .getRecursiveVariableUsages(operation)
    .filter(({ node, type, defaultValue }) => type && isNonNullType(type) && defaultValue !== undefined && nullable.has(node.name.value))
    .map(({ node }) => ({ variable: node.name.value, nullByDefault: nullable.get(node.name.value)!.defaultValue?.kind === Kind.NULL }));
  defaultedUses.set(operation, uses);
  return uses;
}

/** A refusal of the caller's request: a GraphQL error with a client error code, and the fields it concerns. */
const refusal = (message: string, code: string, errors?: FieldError[]) => new GraphQLError(message, { extensions: { code, ...(errors ? { errors } : {}) } });

/**
 * The caller's own mistakes that the gateway's executor would otherwise fail on with a 500: no
 * operation to run (an unknown `operationName`, several operations and none named), a subscription
 * sent over HTTP (subscriptions are served over graphql-ws on the same path), variables nested deeper
 * than a request body may be (the plan's fetches would overflow the stack serializing them), and an explicit `null`
 * for a nullable variable used where a non-null argument or input field has a default (valid GraphQL,
 * refused only when the field executes: leave the variable out and the default applies).
 */
export function callerMistake(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode | undefined, request: RequestShape): GraphQLError | undefined {
  if (!operation) {
    const message = request.operationName ? `Unknown operation named "${request.operationName}".` : 'Must provide operation name if query contains multiple operations.';
    return refusal(message, 'OPERATION_RESOLUTION_FAILURE');
  }
  if (operation.operation === 'subscription') return refusal('Subscriptions are served over WebSocket (graphql-ws) on this path, not over HTTP', 'BAD_REQUEST');
  const variables = request.variables ?? {};
  const deep = Object.keys(variables).filter((name) => nestedDeeperThan(variables[name]));
  if (deep.length > 0) {
    const errors = deep.map((field) => ({ field, message: `${field} nests arrays and objects more than ${MAX_NESTING} deep` }));
    return refusal(`Variables nest too deep: ${deep.map((name) => `$${name}`).join(', ')}`, 'BAD_USER_INPUT', errors);
  }
  const nulls = defaultedUsesOf(schema, document, operation).filter(({ variable, nullByDefault }) => (Object.hasOwn(variables, variable) ? variables[variable] === null : nullByDefault));
  if (nulls.length === 0) return undefined;
  const errors = [...new Set(nulls.map(({ variable }) => variable))].map((variable) => ({ field: variable, message: `${variable} must not be null: leave it out to take its default` }));
  return refusal(`Variable${errors.length > 1 ? 's' : ''} ${errors.map(({ field }) => `"$${field}"`).join(', ')} must not be null where ${errors.length > 1 ? 'they are' : 'it is'} used: leave ${errors.length > 1 ? 'them' : 'it'} out to take the default`, 'BAD_USER_INPUT', errors);
}

/** `callerMistake` in Apollo's pipeline: answered 400, before the gateway plans anything. */
export function callerMistakesPlugin(schema: GraphQLSchema): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operation, request }) {
          const mistake = callerMistake(schema, document, operation, request);
          if (mistake) throw new GraphQLError(mistake.message, { extensions: { ...mistake.extensions, http: { status: 400 } } });
        },
      };
    },
  };
}
