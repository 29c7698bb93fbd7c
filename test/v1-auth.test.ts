import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHATAPP_APP_ID } from './support/fake-chatapp';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const LOGIN = '/api/v1/auth/chatapp/login';
const SNAKE_KEY = /^[a-z0-9]+(_[a-z0-9]+)*$/;

const { platform } = usePlatform();

const login = (body: Record<string, unknown>) => platform.api('POST', LOGIN, { body });
const membersWithOpenId = async (openId: string) => (await platform.sql.query('select id from auth.member where open_id = $1', [openId])).rowCount;
const providerCallsFor = (code: string) => platform.chatapp.calls.filter((params) => params.get('js_code') === code).length;

function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => [key, ...keysOf(item)]);
  return [];
}

describe('POST /api/v1/auth/chatapp/login', () => {
  it('creates a new member without any token and answers the token pair and the chat-app user in snake_case', async () => {
    const code = unique('code');
    const response = await login({ code, app_id: CHATAPP_APP_ID });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: {
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: expect.any(String),
        user: { id: expect.any(String), openid: `openid-${code}`, unionid: `union-${code}`, nickname: null, avatar: null },
      },
    });
    for (const key of keysOf(response.body)) expect(key).toMatch(SNAKE_KEY);
    expect(await membersWithOpenId(`openid-${code}`)).toBe(1);
    const me = await platform.api('GET', '/api/v1/customers/me', { token: response.body.data.access_token });
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(response.body.data.user.id);
  });

  it('logs an existing member in as the same member, with its chat-app profile, app_id being optional', async () => {
    const code = unique('code');
    const member = await platform.loginMember(code);
    const update = await platform.api('PUT', '/auth/api/members/me', { token: member.token, body: { nickName: 'Nok', avatarUrl: 'https://cdn.example.com/nok.png' } });
    expect(update.status).toBe(200);
    const response = await login({ code });
    expect(response.status).toBe(200);
    expect(response.body.data.user).toEqual({ id: member.id, openid: `openid-${code}`, unionid: `union-${code}`, nickname: 'Nok', avatar: 'https://cdn.example.com/nok.png' });
    expect(response.body.data.refresh_token).not.toBe(member.refreshToken);
    expect(await membersWithOpenId(`openid-${code}`)).toBe(1);
  });

  it('answers 400 VALIDATION_ERROR on code when it is missing or empty', async () => {
    for (const body of [{}, { code: '' }]) {
      const response = await login(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: { code: 'VALIDATION_ERROR', message: expect.any(String), details: [{ field: 'code', message: expect.any(String) }] } });
    }
  });

  it('answers 400 on app_id for another app, without asking the provider', async () => {
    const code = unique('code');
    const response = await login({ code, app_id: 'someone-elses-app' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: { code: 'VALIDATION_ERROR', message: expect.any(String), details: [{ field: 'app_id', message: expect.any(String) }] } });
    expect(providerCallsFor(code)).toBe(0);
    expect(await membersWithOpenId(`openid-${code}`)).toBe(0);
  });

  it('answers 401 INVALID_CODE, not the OAuth form, for a code the provider refuses, and creates nobody', async () => {
    const code = unique('bad');
    const response = await login({ code, app_id: CHATAPP_APP_ID });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: { code: 'INVALID_CODE', message: expect.any(String) } });
    expect(response.headers.get('www-authenticate')).toBeNull();
    expect(providerCallsFor(code)).toBe(1);
    expect(await membersWithOpenId(`openid-${code}`)).toBe(0);
  });

  it('leaves the other v1 routes answering a missing token in the OAuth form', async () => {
    const response = await platform.api('GET', '/api/v1/customers/me');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });
});

describe('GET /api/v1/openapi.json', () => {
  it('serves the description generated from the route table to anyone, as schema/openapi-v1.json holds it', async () => {
    const response = await platform.api('GET', '/api/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual(JSON.parse(readFileSync(join(__dirname, '..', 'schema', 'openapi-v1.json'), 'utf8')));
    expect(response.body.paths['/api/v1/customers/{id}'].get.operationId).toBe('V1Customer');
  });
});
