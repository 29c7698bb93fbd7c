import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiSchemaOf, readSupergraphSdl } from '../../core/supergraph';
import { Route, isV1Route } from '../../rest-adapter/route';
import { ROUTES } from '../../rest-adapter/routes';
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
  const document = v1OpenApi(ROUTES, schema) as any;

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
    expect(Object.keys(history.responses).sort()).toEqual(['200', '400', '401', '403', '404', '429']);
    const login = operationOf(document, '/api/v1/auth/chatapp/login', 'post');
    expect(login.security).toEqual([]);
    expect(Object.keys(login.responses).sort()).toEqual(['200', '400', '401', '409', '429', '503']);
  });

  it('describes a body forwarded as the operation\'s input from its GraphQL input type, in snake_case', () => {
    const route: Route = { method: 'post', path: '/api/v1/keys', operation: 'GenerateApiKey', envelope: 'v1', scope: 'admin', status: 201, doc: { summary: 'A key' } };
    const body = operationOf(v1OpenApi([route], schema), '/api/v1/keys', 'post').requestBody!.content['application/json'].schema;
    expect(body.required).toEqual(['name', 'role_id']);
    expect(body.properties).toMatchObject({ name: { type: 'string' }, role_id: { type: 'string' }, scopes: { type: 'array', items: { type: 'string' } }, rate_limit_per_hour: { type: 'integer' } });
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
