import { getNamedType, GraphQLInputType, GraphQLSchema, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType, Kind, OperationDefinitionNode, parse, typeFromAST } from 'graphql';
import { API_SCOPES } from '../../core/auth/scopes';
import { OPERATIONS } from '../operations';
import { isV1Route, Route } from '../route';
import { routeScopes } from './scopes';
import { snakeCase } from './case';
import { arrayOf, integer, JsonSchema, object, ref, string, V1_COMPONENTS } from './openapi-schemas';

/** What a v1 route's entry adds for its OpenAPI description. */
export interface V1RouteDoc {
  summary: string;
  /** Query parameters besides `page` and `limit` (which every v1 list takes). */
  query?: Record<string, JsonSchema>;
  /** The JSON body; without it, derived from the operation's `$input` type when the route forwards the body as `input`. */
  body?: JsonSchema;
  /** The schema of `data` (of each item of a list). */
  response?: JsonSchema;
  /** Statuses of business errors the route may answer besides the usual ones, with what they mean (`422`). */
  errors?: Record<number, string>;
}

const PAGE_PARAMETERS: Record<string, JsonSchema> = {
  page: integer({ minimum: 1, default: 1 }),
  limit: integer({ minimum: 1, maximum: 100, default: 20 }),
};
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'The same key and body answer the first response again; the same key with another body is 409 IDEMPOTENCY_KEY_REUSED',
  schema: string({ minLength: 1, maxLength: 255 }),
};
const RATE_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
};
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const failure = (description: string, component: 'Error' | 'OAuthError' = 'Error') => ({ description, headers: RATE_HEADERS, content: json(ref(component)) });

/**
 * The OpenAPI 3.1 description of `/api/v1`, generated from the route table: one operation per v1 route,
 * with its path and query parameters, body, answer, errors, the scope it needs and who else may call it.
 * `schema/openapi-v1.json` is this document (checked in CI); the adapter serves it at `/api/v1/openapi.json`.
 */
export function v1OpenApi(routes: Route[], apiSchema: GraphQLSchema): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  for (const route of routes.filter(isV1Route)) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    let operationId = route.operation;
    if (operationIds.has(operationId)) operationId = `${operationId}${route.method[0].toUpperCase()}${route.method.slice(1)}`;
    operationIds.add(operationId);
    (paths[path] ??= {})[route.method] = operationOf(route, operationId, apiSchema);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Loyalty platform API, version 1',
      version: '1.0.0',
      description: 'Customers, loyalty, transactions and the rest of the version-1 surface (spec Part 3 and CONTRACT-v1). Generated from the REST adapter\'s route table.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'this server' }],
    tags: [...new Set(Object.keys(paths).map(tagOf))].sort().map((name) => ({ name })),
    paths,
    components: {
      schemas: V1_COMPONENTS,
      headers: {
        RateLimitLimit: { description: 'Requests allowed per hour (standard, premium or the key\'s own tier)', schema: integer() },
        RateLimitRemaining: { description: 'Requests left in this hour', schema: integer() },
        RateLimitReset: { description: 'When the hour ends (Unix seconds)', schema: integer() },
      },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A staff or customer access token, an OAuth access token, or an API key (lpk_...)' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key (lpk_...)' },
        oauth2: {
          type: 'oauth2',
          flows: {
            authorizationCode: { authorizationUrl: '/oauth/authorize', tokenUrl: '/oauth/token', refreshUrl: '/oauth/token', scopes: SCOPE_DESCRIPTIONS },
            clientCredentials: { tokenUrl: '/oauth/token', scopes: SCOPE_DESCRIPTIONS },
          },
        },
      },
    },
  };
}

const SCOPE_DESCRIPTIONS: Record<(typeof API_SCOPES)[number], string> = {
  read: 'read-only',
  write: 'create and update',
  admin: 'administrative operations',
  analytics: 'analytics and reporting',
};

const tagOf = (path: string): string => path.split('/')[3] ?? 'v1';

function operationOf(route: Route, operationId: string, apiSchema: GraphQLSchema): Record<string, unknown> {
  const scopes = routeScopes(route);
  const pathParameters = [...route.path.matchAll(/:(\w+)/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: string() }));
  const queryDoc = { ...(route.envelope === 'v1List' ? PAGE_PARAMETERS : {}), ...route.doc?.query };
  const queryParameters = Object.entries(queryDoc).map(([name, schema]) => ({ name, in: 'query', required: false, schema }));
  const headerParameters = route.idempotent ? [IDEMPOTENCY_KEY] : [];
  const body = ['post', 'put', 'patch'].includes(route.method) ? (route.doc?.body ?? bodyFromOperation(route, apiSchema) ?? object({})) : undefined;
  const data = route.doc?.response ?? object({});
  const success = route.envelope === 'v1List'
    ? object({ data: arrayOf(data), pagination: ref(route.pageCounts ? 'CustomerPagination' : 'Pagination') }, ['data', 'pagination'])
    : object({ data }, ['data']);
  const responses: Record<string, unknown> = {
    [String(route.status ?? 200)]: route.status === 204 ? { description: 'Success, no content', headers: RATE_HEADERS } : { description: 'Success', headers: RATE_HEADERS, content: json(success) },
  };
  if (body || queryParameters.length > 0 || pathParameters.length > 0 || headerParameters.length > 0) responses['400'] = failure('VALIDATION_ERROR: `details` names every bad field');
  if (route.unauthenticated) responses['401'] = failure(`${route.unauthenticated}: the credential in the body was refused`);
  if (!route.public) {
    responses['401'] = failure('invalid_token: no credential, or one invalid or expired (WWW-Authenticate: Bearer error="invalid_token")', 'OAuthError');
    responses['403'] = failure(`insufficient_scope: the credential lacks the ${scopes.map((scope) => `"${scope}"`).join(' and ')} scope${scopes.length > 1 ? 's' : ''} or the role`, 'OAuthError');
  }
  if (route.notFound || pathParameters.length > 0) responses['404'] = failure(route.notFound ?? 'NOT_FOUND');
  if (route.method !== 'get') responses['409'] = failure('INVALID_STATE, DUPLICATE or IDEMPOTENCY_KEY_REUSED');
  for (const [status, description] of Object.entries(route.doc?.errors ?? {})) responses[status] = failure(description);
  responses['429'] = { ...failure('RATE_LIMITED'), headers: { ...RATE_HEADERS, 'Retry-After': { description: 'Seconds to wait', schema: integer() } } };
  return {
    operationId,
    summary: route.doc?.summary ?? `${route.method.toUpperCase()} ${route.path}`,
    tags: [tagOf(route.path)],
    ...(route.public ? { security: [] } : { security: [{ bearer: scopes }, { apiKey: scopes }, { oauth2: scopes }] }),
    'x-customer-access': route.public ? 'public' : route.customer === 'self' ? 'self' : route.customer ? `own ${route.customer.param} only` : 'none',
    parameters: [...pathParameters, ...headerParameters, ...queryParameters],
    ...(body ? { requestBody: { required: true, content: json(body) } } : {}),
    responses,
  };
}

/** A route that forwards the body as the operation's `$input` is described by that input type (snake_case). */
function bodyFromOperation(route: Route, apiSchema: GraphQLSchema): JsonSchema | undefined {
  if (route.variables) return undefined;
  const document = parse(OPERATIONS[route.operation as keyof typeof OPERATIONS]);
  const definition = document.definitions.find((node): node is OperationDefinitionNode => node.kind === Kind.OPERATION_DEFINITION);
  const input = definition?.variableDefinitions?.find((variable) => variable.variable.name.value === 'input');
  const type = input && typeFromAST(apiSchema, input.type as never);
  return type ? schemaOfInput(type as GraphQLInputType) : undefined;
}

const SCALARS: Record<string, JsonSchema> = { String: string(), ID: string(), Int: integer(), Float: { type: 'number' }, Boolean: { type: 'boolean' } };

function schemaOfInput(type: GraphQLInputType): JsonSchema {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return arrayOf(schemaOfInput(inner.ofType));
  const named = getNamedType(inner);
  if (isEnumType(named)) return { type: 'string', enum: named.getValues().map((value) => value.value) };
  if (isScalarType(named)) return SCALARS[named.name] ?? {};
  if (!isInputObjectType(named)) return {};
  const fields = Object.values(named.getFields());
  return object(
    Object.fromEntries(fields.map((field) => [snakeCase(field.name), schemaOfInput(field.type)])),
    fields.filter((field) => isNonNullType(field.type) && field.defaultValue === undefined).map((field) => snakeCase(field.name)),
  );
}
