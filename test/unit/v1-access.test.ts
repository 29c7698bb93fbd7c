import { Request, Response } from 'express';
import { Principal } from '../../core/auth/principal';
import { Route } from '../../core/rest/route';
import { v1Access } from '../../rest-adapter/v1/access';
import { scopesOf } from '../../rest-adapter/v1/scopes';

/** The parts of an express response the access check writes, recorded. */
function recordingResponse(principal?: Principal) {
  const answer: { status?: number; headers: Record<string, string>; body?: unknown } = { headers: {} };
  const res = {
    locals: { principal },
    set: (name: string, value: string) => ((answer.headers[name] = value), res),
    status: (status: number) => ((answer.status = status), res),
    json: (body: unknown) => ((answer.body = body), res),
  };
  return { res: res as unknown as Response, answer };
}

function check(route: Partial<Route>, principal: Principal | undefined, params: Record<string, string> = {}) {
  const { res, answer } = recordingResponse(principal);
  let passed = false;
  v1Access({ method: 'get', path: '/api/v1/things/:id', operation: 'X', envelope: 'v1', ...route } as Route)({ params } as unknown as Request, res, () => (passed = true));
  return { passed, answer };
}

const staff = (role: string) => new Principal('staff', 's1', role, role === 'admin' ? ['*'] : []);

describe('v1 scopes', () => {
  it('follow the staff role, the granted scopes within the role for API keys (read by default), read for unknown roles, read and write for customers', () => {
    expect(scopesOf(staff('admin'))).toEqual(['read', 'write', 'admin', 'analytics']);
    expect(scopesOf(staff('marketing'))).toEqual(['read', 'write', 'analytics']);
    expect(scopesOf(staff('tenant'))).toEqual(['read']);
    expect(scopesOf(staff('auditor'))).toEqual(['read']);
    expect(scopesOf(new Principal('service', 'k1', 'admin', ['*']))).toEqual(['read']);
    expect(scopesOf(new Principal('service', 'k1', 'admin', ['*'], ['analytics', 'read']))).toEqual(['read', 'analytics']);
    // A key's scopes never exceed its role's: a tenant key granted write still only reads.
    expect(scopesOf(new Principal('service', 'k1', 'tenant', [], ['read', 'write']))).toEqual(['read']);
    expect(scopesOf(new Principal('member', 'm1', 'member', []))).toEqual(['read', 'write']);
  });
});

describe('the v1 access check', () => {
  it('refuses a caller without the scope the route declares (403 insufficient_scope naming it)', () => {
    const { passed, answer } = check({ scope: 'admin' }, staff('marketing'));
    expect(passed).toBe(false);
    expect(answer).toEqual({ status: 403, headers: { 'WWW-Authenticate': 'Bearer error="insufficient_scope", scope="admin"' }, body: { error: 'insufficient_scope', error_description: expect.any(String) } });
    expect(check({ scope: 'admin' }, staff('admin')).passed).toBe(true);
  });

  it('needs write for anything but GET unless the route says otherwise', () => {
    expect(check({ method: 'post' }, staff('tenant')).answer.headers['WWW-Authenticate']).toContain('scope="write"');
    expect(check({ method: 'post' }, staff('marketing')).passed).toBe(true);
  });

  it('answers 401 invalid_token without a credential', () => {
    const { passed, answer } = check({}, undefined);
    expect(passed).toBe(false);
    expect(answer).toEqual({ status: 401, headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' }, body: { error: 'invalid_token', error_description: expect.any(String) } });
  });

  it('lets a customer in only where the route allows customers, and only on its own id', () => {
    const customer = new Principal('member', 'm1', 'member', []);
    expect(check({}, customer, { id: 'm1' }).passed).toBe(false);
    expect(check({ customer: { param: 'id' } }, customer, { id: 'm1' }).passed).toBe(true);
    expect(check({ customer: { param: 'id' } }, customer, { id: 'm2' }).answer.status).toBe(403);
    expect(check({ customer: 'self' }, customer).passed).toBe(true);
  });
});
