import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, Server } from 'node:http';
import { AddressInfo, createServer as createTcpServer } from 'node:net';
import { newWebhookId } from '../subgraphs/webhook/entities/webhook';
import { WebhookSender } from '../subgraphs/webhook/services/webhook-sender';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

// The test defaults: private targets NOT allowed (as in production).
// A database of its own: its webhooks would otherwise also receive the events of other files' platforms.
const { platform, admin } = usePlatform({ staff: ['admin'] });
const BASE = '/api/v1/webhooks';
const register = (url: string) => platform.api('POST', BASE, { token: admin.token, body: { url, events: ['*'] } });

/** A TCP server that counts connections and answers nothing: a request reaching it would be seen. */
async function connectionCounter() {
  let connections = 0;
  const server = createTcpServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, connections: () => connections, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function httpServer(handler: Parameters<typeof createHttpServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('registration', () => {
  it.each([
    ['http://example.com/hook', 'url must use https'],
    ['https://127.0.0.1/hook', 'loopback'],
    ['https://localhost:8443/hook', 'loopback'],
    ['https://[::1]/hook', 'loopback'],
    ['https://10.1.2.3/hook', 'private'],
    ['https://192.168.0.10/hook', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'link-local'],
    ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
    // IPv6 forms embedding an IPv4 address: IPv4-compatible, IPv4-translated, NAT64, 6to4, Teredo.
    ['https://[::7f00:1]/hook', 'loopback'],
    ['https://[::ffff:0:7f00:1]/hook', 'loopback'],
    ['https://[64:ff9b::7f00:1]/hook', 'loopback'],
    ['https://[64:ff9b::a9fe:a9fe]/latest/meta-data', 'link-local'],
    ['https://[2002:7f00:1::1]/hook', 'loopback'],
    ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', 'loopback'],
    ['https://2130706433/hook', 'loopback'],
    ['https://0x7f.1/hook', 'loopback'],
    ['https://0.0.0.0/hook', 'loopback'],
    ['https://user:password@example.com/hook', 'credentials'],
  ])('refuses %s (400 on url)', async (url, message) => {
    const refused = await register(url);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'url', message: expect.stringContaining(message) }] });
  });

  it('refuses a change of url to a private address too', async () => {
    const id = newWebhookId();
    await platform.sql.query(`insert into webhook.webhook (id, url, events, secret, status, created_at, updated_at) values ($1, 'https://example.com/hook', '{points.expired}', 'a-secret-of-sixteen', 'disabled', now(), now())`, [id]);
    const refused = await platform.api('PATCH', `${BASE}/${id}`, { token: admin.token, body: { url: 'https://127.0.0.1/hook' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ field: 'url', message: expect.stringContaining('loopback') }]);
    await platform.sql.query('delete from webhook.webhook where id = $1', [id]);
  });
});

describe('delivery', () => {
  it('checks the address again on every attempt: a host that now resolves to loopback is never connected to', async () => {
    // As if localhost had resolved to a public address at registration and changed since.
    const counter = await connectionCounter();
    const id = newWebhookId();
    try {
      await platform.sql.query(
        `insert into webhook.webhook (id, url, events, secret, status, created_at, updated_at) values ($1, $2, '{transaction.completed}', 'a-secret-of-sixteen', 'active', now(), now())`,
        [id, `https://localhost:${counter.port}/hook`],
      );
      const customer = await platform.loginMember();
      const recorded = await platform.api('POST', '/api/v1/transactions', { token: admin.token, body: { customer_id: customer.id, amount: 5 } });
      expect(recorded.status).toBe(201);
      const delivery = await waitFor(async () => {
        const { body } = await platform.api('GET', `${BASE}/${id}/deliveries`, { token: admin.token });
        return body.data.find((row: { attempts: number }) => row.attempts > 0);
      }, 'a refused attempt');
      expect(delivery).toMatchObject({ status: 'pending', last_status_code: null, last_error: expect.stringMatching(/^refused: .*loopback/) });
      expect(counter.connections()).toBe(0);
    } finally {
      await platform.sql.query('delete from webhook.webhook where id = $1', [id]);
      await counter.close();
    }
  });
});

describe('WebhookSender', () => {
  const sender = new WebhookSender({ timeoutMs: 1500, allowPrivateTargets: true });
  afterAll(() => sender.close());
  const body = JSON.stringify({ id: 'e1', type: 'points.earned', created_at: '2026-11-23T06:36:33Z', data: {} });

  it('does not follow a redirect: a 3xx is a failure and its Location is never requested', async () => {
    let followed = 0;
    const target = await httpServer((req, res) => {
      if (req.url === '/elsewhere') followed += 1;
      res.writeHead(302, { location: '/elsewhere' }).end();
    });
    try {
      expect(await sender.send(`${target.url}/hook`, 'a-secret-of-sixteen', 'e1', body)).toEqual({ ok: false, statusCode: 302, error: 'redirect 302 not followed' });
      expect(followed).toBe(0);
    } finally {
      target.server.close();
    }
  });

  it('reads at most a few KiB of an answer, however large', async () => {
    const chunk = randomBytes(64 * 1024);
    const target = await httpServer((_req, res) => {
      res.writeHead(500);
      const pump = () => {
        while (res.write(chunk));
      };
      res.on('drain', pump);
      pump();
    });
    try {
      const result = await sender.send(`${target.url}/hook`, 'a-secret-of-sixteen', 'e1', body);
      expect(result).toMatchObject({ ok: false, statusCode: 500 });
      expect(result.error!.length).toBeLessThan(300);
    } finally {
      target.server.closeAllConnections();
      target.server.close();
    }
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    const target = await httpServer(() => undefined);
    try {
      const started = Date.now();
      expect(await sender.send(`${target.url}/hook`, 'a-secret-of-sixteen', 'e1', body)).toEqual({ ok: false, statusCode: null, error: 'timeout: no answer within 1500 ms' });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      target.server.closeAllConnections();
      target.server.close();
    }
  });

  it('sends again at once on a new connection when a kept-alive one was closed under it, not counting it as a failure', async () => {
    const sockets = new Set<unknown>();
    let requests = 0;
    const target = await httpServer((req, res) => {
      requests += 1;
      sockets.add(req.socket);
      // The second request arrives on the kept-alive connection of the first: it is cut without an answer.
      if (requests === 2) return void req.socket.destroy();
      res.writeHead(200).end('ok');
    });
    try {
      expect(await sender.send(`${target.url}/hook`, 'a-secret-of-sixteen', 'e1', body)).toMatchObject({ ok: true });
      expect(await sender.send(`${target.url}/hook`, 'a-secret-of-sixteen', 'e2', body)).toEqual({ ok: true, statusCode: 200, error: null });
      expect(requests).toBe(3);
      expect(sockets.size).toBe(2);
    } finally {
      target.server.closeAllConnections();
      target.server.close();
    }
  });

  it('refuses private targets unless allowed, without connecting', async () => {
    const strict = new WebhookSender({ timeoutMs: 1500, allowPrivateTargets: false });
    const counter = await connectionCounter();
    try {
      expect((await strict.send(`https://127.0.0.1:${counter.port}/`, 'a-secret-of-sixteen', 'e1', body)).error).toMatch(/^refused/);
      expect((await strict.send(`https://localhost:${counter.port}/`, 'a-secret-of-sixteen', 'e1', body)).error).toMatch(/^refused/);
      expect((await strict.send(`http://example.com:${counter.port}/`, 'a-secret-of-sixteen', 'e1', body)).error).toBe('refused: url must use https');
      expect(counter.connections()).toBe(0);
    } finally {
      strict.close();
      await counter.close();
    }
  });
});
