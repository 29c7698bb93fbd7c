import { DocumentNode, GraphQLInputType, GraphQLSchema, Kind, OperationDefinitionNode, parse, typeFromAST } from 'graphql';
import { API_SCOPES } from '../../core/auth/scopes';
import { isV1Route, notFoundCodes, operationNameOf, Route } from '../../core/rest/route';
import { V1ErrorCodes } from '../../core/rest/failures';
import { DomainSurface } from '../../core/rest/surface';
import { routeScopes } from './scopes';
import { inputBodySchema, queryParameterSchema, variablesBodySchema } from './openapi-inputs';
import { arrayOf, boolean, INT32, integer, JsonSchema, object, oneOf, record, ref, string } from '../../core/rest/json-schema';

/** The engine's own components: the error bodies, the pagination of every v1 list and the public event types. */
const engineComponents = (publicEvents: Required<DomainSurface>['publicEvents']): Record<string, JsonSchema> => ({
  PublicEventType: { ...oneOf(...publicEvents.map((event) => event.type)), description: "Part 3's event types: the domains' public events" },
  Error: record({
    error: object(
      {
        code: string({ description: 'VALIDATION_ERROR, <THING>_NOT_FOUND, INVALID_STATE, DUPLICATE, IDEMPOTENCY_KEY_REUSED, INSUFFICIENT_POINTS, RATE_LIMITED, ...' }),
        message: string(),
        details: arrayOf(record({ field: string({ description: 'as the caller spelled it: address.postal_code, awards[2].points' }), message: string() })),
      },
      ['code', 'message'],
    ),
  }),
  OAuthError: object({ error: oneOf('invalid_token', 'insufficient_scope'), error_description: string() }, ['error']),
  Pagination: record({ page: integer({ minimum: 1 }), limit: integer({ minimum: 1, maximum: 100 }), total: integer({ minimum: 0 }) }),
  CountedPagination: record({
    page: integer({ minimum: 1 }),
    limit: integer({ minimum: 1, maximum: 100 }),
    total: integer({ minimum: 0 }),
    total_pages: integer({ minimum: 0 }),
    has_next: boolean(),
    has_prev: boolean(),
  }),
});

const PAGE_PARAMETERS: Record<string, JsonSchema> = {
  page: integer({ ...INT32, minimum: 1, default: 1 }),
  limit: integer({ ...INT32, minimum: 1, maximum: 100, default: 20 }),
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
/** `{error: {code, message, details?}}` whose code is one of these. */
const errorOf = (codes: string[]): JsonSchema => ({ allOf: [ref('Error'), object({ error: object({ code: { enum: codes } }) })] });
/** `{error, error_description}` of RFC 6750 with this error. */
const oauthErrorOf = (error: string): JsonSchema => ({ allOf: [ref('OAuthError'), object({ error: { const: error } })] });
const wwwAuthenticate = (description: string) => ({ 'WWW-Authenticate': { description, schema: string() } });
/** `CUSTOMER_NOT_FOUND` → `customer`. */
const thingOf = (code: string) => code.replace(/_NOT_FOUND$/, '').toLowerCase().replace(/_/g, ' ');

/**
 * The OpenAPI 3.1 description of `/api/v1`, generated from the route table: one operation per v1 route,
 * with its path and query parameters, body, answer, errors, the scope it needs and who else may call it.
 * `schema/openapi-v1.json` is this document (checked in CI); the adapter serves it at `/api/v1/openapi.json`.
 */
export function v1OpenApi({ routes, components, publicEvents }: Pick<Required<DomainSurface>, 'routes' | 'components' | 'publicEvents'>, apiSchema: GraphQLSchema): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  for (const route of routes.filter(isV1Route)) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    let operationId = operationNameOf(route.document);
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
      schemas: { ...engineComponents(publicEvents), ...components },
      responses: SHARED_RESPONSES,
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
  const document = parse(route.document);
  const queryDoc = { ...(route.envelope === 'v1List' ? PAGE_PARAMETERS : {}), ...route.doc?.query };
  const queryParameters = Object.entries(queryDoc).map(([name, schema]) => ({ name, in: 'query', required: false, schema: queryParameterSchema(document, apiSchema, name, schema) }));
  const headerParameters = route.idempotent ? [IDEMPOTENCY_KEY] : [];
  const body = ['post', 'put', 'patch'].includes(route.method) ? bodyOf(route, document, apiSchema) : undefined;
  const data = route.doc?.response ?? object({});
  const success = route.envelope === 'v1List'
    ? object({ data: arrayOf(data), pagination: ref(route.pageCounts ? 'CountedPagination' : 'Pagination') }, ['data', 'pagination'])
    : object({ data }, ['data']);
  const responses: Record<string, unknown> = {
    [String(route.status ?? 200)]: route.status === 204 ? { description: 'Success, no content', headers: RATE_HEADERS } : { description: 'Success', headers: RATE_HEADERS, content: json(success) },
  };
  const hasInputs = !!body || queryParameters.length > 0 || pathParameters.length > 0 || headerParameters.length > 0;
  for (const [status, codes] of Object.entries(errorCodesOf(route, hasInputs, pathParameters.length > 0))) responses[status] = errorResponse(codes);
  responses['429'] = { $ref: '#/components/responses/RateLimited' };
  responses['503'] ??= { $ref: '#/components/responses/ServiceUnavailable' };
  if (!route.public) {
    const own = responses['401'] as { description: string; content: Record<string, { schema: JsonSchema }> } | undefined;
    responses['401'] = own
      ? { ...INVALID_TOKEN, description: `${INVALID_TOKEN.description}; ${own.description}`, content: json({ oneOf: [INVALID_TOKEN.content['application/json'].schema, own.content['application/json'].schema] }) }
      : { $ref: '#/components/responses/InvalidToken' };
    responses['403'] = {
      description: `insufficient_scope: the credential lacks the ${scopes.map((scope) => `"${scope}"`).join(' and ')} scope${scopes.length > 1 ? 's' : ''} or the role (a customer token: another customer's data)`,
      headers: { ...RATE_HEADERS, ...wwwAuthenticate(`Bearer error="insufficient_scope", scope="${scopes.join(' ')}"`) },
      content: json(oauthErrorOf('insufficient_scope')),
    };
  }
  return {
    operationId,
    summary: route.doc?.summary ?? `${route.method.toUpperCase()} ${route.path}`,
    tags: [tagOf(route.path)],
    ...(route.public ? { security: [] } : { security: [{ bearer: scopes }, { apiKey: scopes }, { oauth2: scopes }] }),
    'x-customer-access': route.public ? 'public' : route.customer === 'self' ? 'self' : route.customer ? `own ${route.customer.param} only` : 'none',
    parameters: [...pathParameters, ...headerParameters, ...queryParameters],
    ...(body ? { requestBody: { required: true, content: json(body) } } : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
  };
}

/** `{error: {code}}` of one of these codes (with when each is answered). */
function errorResponse(codes: Record<string, string>, headers: Record<string, unknown> = {}) {
  const description = Object.entries(codes).map(([code, when]) => `${code}: ${when}`).join('; ');
  return { description, headers: { ...RATE_HEADERS, ...headers }, content: json(errorOf(Object.keys(codes))) };
}

const SERVICE_UNAVAILABLE = 'a part of the platform (or a provider it needs) is unavailable: try again later';
const INVALID_TOKEN = {
  description: 'invalid_token: no credential, or one invalid or expired',
  headers: { ...RATE_HEADERS, ...wwwAuthenticate('Bearer error="invalid_token"') },
  content: json(oauthErrorOf('invalid_token')),
};
/** The answers every route may give alike. */
const SHARED_RESPONSES = {
  InvalidToken: INVALID_TOKEN,
  RateLimited: errorResponse({ RATE_LIMITED: 'the caller\'s hourly budget is spent' }, { 'Retry-After': { description: 'Seconds to wait', schema: integer({ minimum: 0 }) } }),
  ServiceUnavailable: errorResponse({ SERVICE_UNAVAILABLE }),
};

/**
 * The `{error: {code}}` codes a route answers, by status: what its entry implies (400 with inputs, its
 * `_NOT_FOUND`, 409 on writes, its own 401 code), what its own failures declare, its business rules
 * (`doc.errors`); 401, 403, 429 and the platform's 503 are added by the caller.
 */
function errorCodesOf(route: Route, hasInputs: boolean, hasPathParameters: boolean): V1ErrorCodes {
  const codes: V1ErrorCodes = {};
  const add = (more: V1ErrorCodes) => {
    for (const [status, byCode] of Object.entries(more)) codes[Number(status)] = { ...codes[Number(status)], ...byCode };
  };
  if (hasInputs) add({ 400: { VALIDATION_ERROR: '`details` names every bad field' } });
  if (route.unauthenticated) add({ 401: { [route.unauthenticated]: 'the credential in the body was refused' } });
  if (route.notFound || hasPathParameters) {
    const notFound = route.notFound ? notFoundCodes(route.notFound) : ['NOT_FOUND'];
    for (const code of notFound) add({ 404: { [code]: `no such ${route.notFound ? thingOf(code) : 'thing'} (an id that is no id at all included)` } });
  }
  if (route.method !== 'get') add({ 409: { INVALID_STATE: 'the state of what it acts on does not allow it' } });
  if (route.idempotent) add({ 409: { IDEMPOTENCY_KEY_REUSED: 'the Idempotency-Key was used with another body' } });
  if (route.v1Failure) add(route.v1Failure.codes);
  if (route.doc?.errors) add(route.doc.errors);
  // A route's own 503 (its provider) is besides the platform's.
  if (codes[503]) codes[503] = { SERVICE_UNAVAILABLE: `${codes[503].SERVICE_UNAVAILABLE}, or ${SERVICE_UNAVAILABLE}` };
  return codes;
}

/**
 * A write's JSON body: written out in its `doc`, or described from its operation (the `$input` type, or the
 * variables the body's fields are) with the rules of the subgraph classes behind it.
 */
function bodyOf(route: Route, document: DocumentNode, apiSchema: GraphQLSchema): JsonSchema {
  if (route.doc?.body) return route.doc.body;
  if (route.doc?.bodyVariables) return variablesBodySchema(document, apiSchema, route.doc.bodyVariables);
  const definition = document.definitions.find((node): node is OperationDefinitionNode => node.kind === Kind.OPERATION_DEFINITION);
  const input = definition?.variableDefinitions?.find((variable) => variable.variable.name.value === 'input');
  return input ? inputBodySchema(typeFromAST(apiSchema, input.type as never) as GraphQLInputType, route.doc?.input) : object({});
}
