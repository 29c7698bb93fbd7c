import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiSchemaOf, readSupergraphSdl } from '../../core/supergraph';
import { Route, isV1Route } from '../../core/rest/route';
import { routeDocument, ROUTES } from '../support/route-documents';
import { platformSurface } from '../../subgraphs/registry';
import { v1OpenApi } from '../../rest-adapter/v1/openapi';

const ROOT = join(__dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'openapi-'));
/** schema/openapi-check.ts in a process of its own: its validator is published as an ES module only, which jest cannot load. */
function openApiProblems(document: unknown): string[] {
  const file = join(scratch, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  return JSON.parse(execFileSync(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'schema', 'openapi-check.ts'), file], { cwd: ROOT, encoding: 'utf8' }));
}

const schema = apiSchemaOf(readSupergraphSdl());
type Operation = { security: unknown; 'x-customer-access': string; parameters: Array<{ name: string; in: string }>; requestBody?: { content: Record<string, { schema: any }> }; responses: Record<string, unknown> };
const operationOf = (document: any, path: string, method: string): Operation => document.paths[path][method];

describe('the v1 OpenAPI description', () => {
  const document = v1OpenApi(platformSurface(), schema) as any;

  it('is valid OpenAPI 3.1 and is what schema/openapi-v1.json holds', () => {
    expect(openApiProblems(document)).toEqual([]);
    expect(JSON.parse(readFileSync(join(ROOT, 'schema', 'openapi-v1.json'), 'utf8'))).toEqual(document);
  });

  it('has one operation per v1 route, with its scope, customer access, path parameters and errors', () => {
    const v1Routes = ROUTES.filter(isV1Route);
    const described = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods as object).map((method) => `${method} ${path}`));
    expect(described.sort()).toEqual(v1Routes.map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`).sort());
    const history = operationOf(document, '/api/v1/customers/{id}/points/history', 'get');
    expect(history.security).toEqual([{ bearer: ['read'] }, { apiKey: ['read'] }, { oauth2: ['read'] }]);
    expect(history['x-customer-access']).toBe('own id only');
    expect(history.parameters.map((parameter) => `${parameter.in} ${parameter.name}`)).toEqual(['path id', 'query page', 'query limit', 'query type', 'query date_from', 'query date_to']);
    expect(Object.keys(history.responses).sort()).toEqual(['200', '400', '401', '403', '404', '429', '503']);
    const login = operationOf(document, '/api/v1/auth/chatapp/login', 'post');
    expect(login.security).toEqual([]);
    expect(Object.keys(login.responses).sort()).toEqual(['200', '400', '401', '409', '429', '503']);
  });

  const bodyOf = (path: string, method: string) => operationOf(document, path, method).requestBody!.content['application/json'].schema;
  const codesOf = (path: string, method: string, status: number): string[] => {
    const response = operationOf(document, path, method).responses[String(status)] as any;
    const answered = response.$ref ? document.components.responses[response.$ref.split('/').pop()] : response;
    return answered.content['application/json'].schema.allOf[1].properties.error.properties.code.enum;
  };

  it('marks required what the subgraph\'s rules refuse when missing, one of a group as anyOf, and nothing a default fills', () => {
    expect(bodyOf('/api/v1/customers', 'post').required).toEqual(['name']);
    expect(bodyOf('/api/v1/customers/{id}', 'patch').required).toBeUndefined();
    const tier = bodyOf('/api/v1/customers/{id}/tier', 'patch');
    expect(tier.required).toEqual(['reason']);
    expect(tier.anyOf.map((alternative: any) => alternative.required)).toEqual([['tier'], ['tier_id']]);
    expect(bodyOf('/api/v1/customers/{id}/chatapp/link', 'post').required).toEqual(['code']);
    const claim = bodyOf('/api/v1/customers/{id}/rewards/claim', 'post');
    expect(claim.required).toEqual(['reward_id']);
    expect(claim.properties.quantity).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 1 });
    expect(bodyOf('/api/v1/points/batch-award', 'post').properties.awards).toMatchObject({ minItems: 1, maxItems: 1000, items: { required: ['customer_id', 'points'] } });
    const send = bodyOf('/api/v1/notifications/send', 'post');
    expect(send.required).toEqual(['customer_ids']);
    expect(send.anyOf.map((alternative: any) => alternative.required)).toEqual([['title', 'body', 'channel'], ['template']]);
  });

  it('bounds GraphQL Int to 32 bits, narrowed by the rules, and states lengths, enums, formats and patterns', () => {
    expect(bodyOf('/api/v1/customers/{id}/points/award', 'post').properties.points).toEqual({ type: 'integer', format: 'int32', minimum: 1, maximum: 1_000_000_000 });
    expect(operationOf(document, '/api/v1/customers', 'get').parameters.find((parameter) => parameter.name === 'page')).toMatchObject({ schema: { minimum: 1, maximum: 2147483647 } });
    const customer = bodyOf('/api/v1/customers', 'post').properties;
    expect(customer.name).toEqual({ type: 'string', minLength: 1, maxLength: 100 });
    expect(customer.email.anyOf[0]).toEqual({ type: 'string', format: 'email', maxLength: 254 });
    expect(customer.gender.anyOf[0].enum).toEqual(['male', 'female', 'other']);
    expect(customer.address.anyOf[0].properties.postal_code.anyOf[0].pattern).toBe('^[A-Za-z0-9 -]{2,12}$');
    expect(customer.date_of_birth.anyOf[0]).toMatchObject({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', anyOf: [{ format: 'date' }, { format: 'date-time' }] });
    expect(bodyOf('/api/v1/transactions', 'post').properties.customer_id).toMatchObject({ type: 'string', format: 'uuid' });
    expect(bodyOf('/api/v1/analytics/reports/generate', 'post').properties.type.enum).toEqual(['customers', 'points', 'transactions', 'campaigns', 'rewards']);
  });

  it('lets null through where the server takes it (metadata, quiet_hours) and nowhere else', () => {
    const isNullable = (schema: any) => schema.anyOf?.some((branch: any) => branch.type === 'null') ?? false;
    expect(isNullable(bodyOf('/api/v1/customers/{id}/points/award', 'post').properties.metadata)).toBe(true);
    expect(isNullable(bodyOf('/api/v1/customers/{id}/points/award', 'post').properties.points)).toBe(false);
    expect(isNullable(bodyOf('/api/v1/customers/{id}/notifications/preferences', 'patch').properties.quiet_hours)).toBe(true);
    expect(isNullable(bodyOf('/api/v1/customers', 'post').properties.name)).toBe(false);
    expect(isNullable(bodyOf('/api/v1/customers/{id}', 'patch').properties.email)).toBe(true);
  });

  it('lists every error code of a route: its declared failures, its business rules, its _NOT_FOUND, and the shared 401, 429 and 503', () => {
    expect(codesOf('/api/v1/campaigns/{id}/join', 'post', 422)).toEqual(['CAMPAIGN_NOT_ACTIVE', 'NOT_ELIGIBLE', 'CAMPAIGN_FULL']);
    expect(codesOf('/api/v1/campaigns/{id}/join', 'post', 409)).toEqual(['INVALID_STATE', 'ALREADY_JOINED']);
    expect(codesOf('/api/v1/campaigns/{id}/join', 'post', 404)).toEqual(['CAMPAIGN_NOT_FOUND', 'CUSTOMER_NOT_FOUND']);
    expect(codesOf('/api/v1/customers/{id}/rewards/claim', 'post', 422)).toEqual(['NOT_ELIGIBLE', 'OUT_OF_STOCK', 'INSUFFICIENT_POINTS']);
    expect(codesOf('/api/v1/customers/{id}/rewards/claim', 'post', 409)).toEqual(['INVALID_STATE', 'IDEMPOTENCY_KEY_REUSED']);
    expect(codesOf('/api/v1/customers/{id}/tier', 'patch', 404)).toEqual(['CUSTOMER_NOT_FOUND', 'TIER_NOT_FOUND']);
    expect(codesOf('/api/v1/customers', 'post', 409)).toEqual(['INVALID_STATE', 'DUPLICATE']);
    expect(codesOf('/api/v1/notifications/send', 'post', 404)).toEqual(['CUSTOMER_NOT_FOUND', 'TEMPLATE_NOT_FOUND']);
    expect(codesOf('/api/v1/customers', 'get', 429)).toEqual(['RATE_LIMITED']);
    expect(codesOf('/api/v1/customers', 'get', 503)).toEqual(['SERVICE_UNAVAILABLE']);
    for (const route of ROUTES.filter(isV1Route)) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      for (const [status, codes] of Object.entries(route.v1Failure?.codes ?? {})) {
        expect({ route: `${route.method} ${path}`, codes: codesOf(path, route.method, Number(status)) }).toEqual({ route: `${route.method} ${path}`, codes: expect.arrayContaining(Object.keys(codes)) });
      }
    }
    const invalidToken = document.components.responses.InvalidToken;
    expect(invalidToken.headers['WWW-Authenticate']).toBeDefined();
    expect(invalidToken.content['application/json'].schema.allOf[1].properties.error).toEqual({ const: 'invalid_token' });
    expect(document.components.responses.RateLimited.headers['Retry-After']).toBeDefined();
    expect((operationOf(document, '/api/v1/customers', 'get').responses['403'] as any).headers['WWW-Authenticate']).toBeDefined();
  });

  it('describes a batch award row\'s error as the object it is', () => {
    const row = document.components.schemas.BatchAwardReport.properties.results.items;
    expect(row.properties.error).toMatchObject({ type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } }, required: ['code', 'message'] });
  });

  it('describes a body forwarded as the operation\'s input from its GraphQL input type, in snake_case', () => {
    const route: Route = { method: 'post', path: '/api/v1/keys', document: routeDocument('GenerateApiKey'), envelope: 'v1', scope: 'admin', status: 201, doc: { summary: 'A key' } };
    const body = operationOf(v1OpenApi({ routes: [route], components: platformSurface().components, publicEvents: [] }, schema), '/api/v1/keys', 'post').requestBody!.content['application/json'].schema;
    expect(body.required).toEqual(['name', 'role_id']);
    expect(body.properties).toMatchObject({
      name: { type: 'string', minLength: 1, maxLength: 256 },
      role_id: { type: 'string', format: 'uuid' },
      scopes: { anyOf: [{ type: 'array', items: { type: 'string', enum: ['read', 'write', 'admin', 'analytics'] }, minItems: 1, maxItems: 4 }, { type: 'null' }] },
      rate_limit_per_hour: { anyOf: [{ type: 'integer', format: 'int32', minimum: 1, maximum: 10_000_000 }, { type: 'null' }] },
    });
  });

  it('finds what is wrong with a broken description', () => {
    const broken = structuredClone(document);
    operationOf(broken, '/api/v1/customers', 'get').parameters[0].in = 'body';
    expect(openApiProblems(broken).join()).toMatch(/not valid OpenAPI 3.1/);
    const dangling = structuredClone(document);
    delete dangling.components.schemas.PointBalance;
    expect(openApiProblems(dangling)).toContain('openapi-v1.json: $ref to a missing component schemas/PointBalance');
  });
});
