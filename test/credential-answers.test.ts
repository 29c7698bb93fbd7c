import { CHATAPP_APP_ID } from './support/fake-chatapp';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

/**
 * Every answer that carries a credential (access and refresh tokens, API keys, webhook secrets) says
 * `Cache-Control: no-store`, refusals included: no browser history, disk cache or proxy keeps it. The
 * OAuth token endpoint's own answers are tested in v1-oauth.test.ts.
 */
const { platform, admin } = usePlatform({ staff: ['admin'], env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });

const noStore = (response: { headers: Headers }) => response.headers.get('cache-control');

it('staff login and refresh, Part 1 and v1 chat-app logins, API key creation and exchange, webhook creation: no-store, success or not', async () => {
  const login = await platform.api('POST', '/auth/api/staffs/login', { body: { email: admin.email, password: admin.password } });
  const refresh = await platform.api('POST', '/auth/api/get-new-access-token', { body: { refreshToken: login.body.data.data.refreshToken } });
  const memberLogin = await platform.api('POST', '/auth/api/members/chatapp/login', { body: { code: unique('code') } });
  const memberRefresh = await platform.api('POST', '/auth/api/get-new-access-token', { body: { refreshToken: memberLogin.body.data.data.refreshToken } });
  const v1Login = await platform.api('POST', '/api/v1/auth/chatapp/login', { body: { code: unique('code'), app_id: CHATAPP_APP_ID } });
  const generated = await platform.api('POST', '/auth/api/services/generate-api-key', { token: admin.token, body: { name: unique('key'), roleId: await platform.roleId('admin') } });
  const exchanged = await platform.api('POST', '/auth/api/services/get-access-token', { body: { apiKey: generated.body.data.apiKey } });
  const webhook = await platform.api('POST', '/api/v1/webhooks', { token: admin.token, body: { url: 'http://127.0.0.1:9/hook', events: ['points.earned'] } });
  const answers = { login, refresh, memberLogin, memberRefresh, v1Login, generated, exchanged, webhook };
  expect(Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, [answer.status, noStore(answer)]]))).toEqual({
    login: [200, 'no-store'],
    refresh: [200, 'no-store'],
    memberLogin: [200, 'no-store'],
    memberRefresh: [200, 'no-store'],
    v1Login: [200, 'no-store'],
    generated: [201, 'no-store'],
    exchanged: [200, 'no-store'],
    webhook: [201, 'no-store'],
  });

  const refused = {
    login: await platform.api('POST', '/auth/api/staffs/login', { body: { email: admin.email, password: 'wrong-password' } }),
    refresh: await platform.api('POST', '/auth/api/get-new-access-token', { body: { refreshToken: 'not-a-token' } }),
    v1Login: await platform.api('POST', '/api/v1/auth/chatapp/login', { body: { code: 'bad-code', app_id: CHATAPP_APP_ID } }),
    exchanged: await platform.api('POST', '/auth/api/services/get-access-token', { body: { apiKey: 'lpk_not-a-key' } }),
  };
  expect(Object.fromEntries(Object.entries(refused).map(([name, answer]) => [name, [answer.status >= 400, noStore(answer)]]))).toEqual({
    login: [true, 'no-store'],
    refresh: [true, 'no-store'],
    v1Login: [true, 'no-store'],
    exchanged: [true, 'no-store'],
  });
  // Answers without a credential keep the default.
  expect(noStore(await platform.api('GET', '/api/v1/customers', { token: admin.token }))).toBeNull();
});
