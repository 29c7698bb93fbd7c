import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AccessTokens } from '../core/auth/jwt';
import { Principal } from '../core/auth/principal';
import { rateLimitRefusals } from '../core/metrics';
import { IMAGES } from './support/images';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

/** The per-IP budget: 6 requests an hour for anonymous callers, staff and members; API keys 10,000. */
const LIMIT = 6;
const { platform, admin } = usePlatform({ env: { RATE_LIMIT_STANDARD_PER_HOUR: String(LIMIT) }, staff: ['admin'] });

describe('requests that check a secret or issue a credential', () => {
  it('are counted by the client address, whatever token comes with them: an API key does not raise the budget of guessing', async () => {
    // The admin's login took the address's first request.
    const key = await platform.api('POST', '/auth/api/services/generate-api-key', {
      token: admin.token,
      body: { name: unique('key'), roleId: await platform.roleId('admin') },
    });
    expect(key.status).toBe(201);
    const exchanged = await platform.api('POST', '/auth/api/services/get-access-token', { body: { apiKey: key.body.data.apiKey } });
    const left = Number(exchanged.headers.get('x-ratelimit-remaining'));
    expect(left).toBeLessThan(LIMIT);
    const keyToken = exchanged.body.data.accessToken as string;

    const guesses = [];
    for (let i = 0; i <= left; i += 1) {
      const response = await platform.api('POST', '/auth/api/staffs/login', { token: keyToken, body: { email: admin.email, password: `guess-${i}` } });
      guesses.push([response.status, response.headers.get('x-ratelimit-limit'), response.headers.get('x-ratelimit-remaining')]);
    }
    expect(guesses).toEqual([
      ...Array.from({ length: left }, (_, i) => [401, String(LIMIT), String(left - 1 - i)]),
      [429, String(LIMIT), '0'],
    ]);
    // The same through the gateway, through the OAuth token endpoint and through the key exchange.
    const login = await platform.graphql(`mutation { staffLogin(input: {email: "${admin.email}", password: "guess"}) { accessToken } }`, {}, keyToken);
    expect(login.status).toBe(429);
    expect(login.body.errors[0]).toMatchObject({ message: 'Too many requests: rate limit exceeded', extensions: { code: 'RATE_LIMITED' } });
    expect(Number(login.headers.get('retry-after'))).toBeGreaterThan(0);
    const oauth = await fetch(`${platform.restUrl}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keyToken}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(oauth.status).toBe(429);
    const exchange = await platform.api('POST', '/auth/api/services/get-access-token', { token: keyToken, body: { apiKey: key.body.data.apiKey } });
    expect(exchange.status).toBe(429);
    // The key's own budget is its own: its other requests go on.
    const own = await platform.api('GET', '/auth/api/roles', { token: keyToken });
    expect(own.status).toBe(200);
    expect(own.headers.get('x-ratelimit-limit')).toBe('10000');
  });
});

describe('uploaded files', () => {
  it('are rate limited like every other path, each refusal counted in rate_limit_refusals_total', async () => {
    const refused = async () => (await rateLimitRefusals.get()).values.find((value) => value.labels.tier === 'standard')?.value ?? 0;
    const refusedBefore = await refused();
    const name = `${unique('image')}.png`;
    mkdirSync(join(platform.dataDir, 'uploads'), { recursive: true });
    writeFileSync(join(platform.dataDir, 'uploads', name), IMAGES.png);
    const caller = await new AccessTokens(platform.config.jwtSecret).sign(new Principal('member', randomUUID(), 'customer', []));
    const answers = [];
    for (let i = 0; i <= LIMIT; i += 1) {
      const response = await fetch(`${platform.restUrl}/files/${name}`, { headers: { authorization: `Bearer ${caller}` } });
      answers.push([response.status, response.headers.get('x-ratelimit-remaining')]);
      if (response.status === 429) expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(answers).toEqual([...Array.from({ length: LIMIT }, (_, i) => [200, String(LIMIT - 1 - i)]), [429, '0']]);
    // A spent caller is refused from memory: counted as well.
    expect((await fetch(`${platform.restUrl}/files/${name}`, { headers: { authorization: `Bearer ${caller}` } })).status).toBe(429);
    expect((await refused()) - refusedBefore).toBe(2);
  });
});
