import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export const CHATAPP_APP_ID = 'test-app-id';
export const CHATAPP_APP_SECRET = 'test-app-secret';

/** A subscribe message the fake took (`POST /cgi-bin/message/subscribe/send`). */
export interface SubscribeMessage {
  token: string;
  body: { touser: string; template_id: string; page?: string; data: Record<string, { value: string }> };
}

export interface FakeChatapp {
  url: string;
  calls: URLSearchParams[];
  /** Access tokens issued by `GET /cgi-bin/token`, in order. */
  tokens: string[];
  /** Subscribe messages taken (errcode 0). */
  messages: SubscribeMessage[];
  /** Subscribe messages refused, with the errcode answered. */
  refused: Array<SubscribeMessage & { errcode: number }>;
  /**
   * Every token issued so far is refused from now on (errcode 42001, expired). `holdUntilRenewed`: the
   * first refusal is answered at once, later ones only once a message came with a token issued after
   * this call (so they reach the sender after it renewed its token).
   */
  expireTokens: (options?: { holdUntilRenewed?: boolean }) => void;
  /** The `expires_in` (seconds) of tokens issued from now on (7200 until changed). */
  tokenLifetime: (seconds: number) => void;
  /** errcodes answered for messages to `openid`, in order, before taking them. */
  refuse: (openid: string, errcodes: number[]) => void;
  close: () => Promise<void>;
}

/** The errcode of a `page` that is not a page of the mini-program (the real API takes page paths only, `index?foo=bar`). */
export const INVALID_PAGE = 41030;

/**
 * A stand-in for the WeChat-compatible identity provider: `jscode2session` answers an openid derived
 * from the code, or an errcode for codes starting with "bad" and for a wrong app id or secret.
 */
export async function startFakeChatapp(): Promise<FakeChatapp> {
  const calls: URLSearchParams[] = [];
  const tokens: string[] = [];
  const expired = new Set<string>();
  const messages: SubscribeMessage[] = [];
  const refused: FakeChatapp['refused'] = [];
  const refusals = new Map<string, number[]>();
  let lifetime = 7200;
  /** Refusals of expired tokens waiting for a renewed token's message (expireTokens with holdUntilRenewed). */
  let held: { renewedAfter: number; answered: boolean; released: boolean; waiting: Array<() => void> } | undefined;
  const releaseHeld = () => {
    if (!held) return;
    held.released = true;
    for (const answer of held.waiting.splice(0)) answer();
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    res.setHeader('content-type', 'application/json');
    // The subscribe-message API of notifications: an access token (client credentials), then messages with it.
    if (url.pathname === '/cgi-bin/token') {
      if (url.searchParams.get('appid') !== CHATAPP_APP_ID || url.searchParams.get('secret') !== CHATAPP_APP_SECRET || url.searchParams.get('grant_type') !== 'client_credential') {
        return void res.end(JSON.stringify({ errcode: 40013, errmsg: 'invalid appid' }));
      }
      const token = `token-${tokens.length + 1}`;
      tokens.push(token);
      return void res.end(JSON.stringify({ access_token: token, expires_in: lifetime }));
    }
    if (url.pathname === '/cgi-bin/message/subscribe/send' && req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const token = url.searchParams.get('access_token') ?? '';
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SubscribeMessage['body'];
        const refuse = (errcode: number, errmsg: string) => {
          refused.push({ token, body, errcode });
          res.end(JSON.stringify({ errcode, errmsg }));
        };
        if (!tokens.includes(token) || expired.has(token)) {
          const answer = () => refuse(42001, 'access_token expired');
          if (!held || !held.answered || held.released) {
            if (held) held.answered = true;
            return answer();
          }
          return void held.waiting.push(answer);
        }
        if (held && tokens.indexOf(token) >= held.renewedAfter) releaseHeld();
        if (body.page !== undefined && /^[a-z][a-z0-9+.-]*:/i.test(body.page)) return refuse(INVALID_PAGE, 'invalid page rid: fake');
        const errcode = refusals.get(body.touser)?.shift();
        if (errcode !== undefined) return refuse(errcode, `refused ${errcode}`);
        messages.push({ token, body });
        res.end(JSON.stringify({ errcode: 0, errmsg: 'ok' }));
      });
      return;
    }
    if (url.pathname !== '/sns/jscode2session') {
      res.statusCode = 404;
      return void res.end('{}');
    }
    calls.push(url.searchParams);
    const code = url.searchParams.get('js_code') ?? '';
    const credentialsOk =
      url.searchParams.get('appid') === CHATAPP_APP_ID &&
      url.searchParams.get('secret') === CHATAPP_APP_SECRET &&
      url.searchParams.get('grant_type') === 'authorization_code';
    if (!credentialsOk) return void res.end(JSON.stringify({ errcode: 40013, errmsg: 'invalid appid' }));
    if (code.startsWith('bad')) return void res.end(JSON.stringify({ errcode: 40029, errmsg: 'invalid code' }));
    res.end(JSON.stringify({ openid: `openid-${code}`, session_key: 'session-key', unionid: `union-${code}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    tokens,
    messages,
    refused,
    expireTokens: ({ holdUntilRenewed = false } = {}) => {
      releaseHeld();
      tokens.forEach((token) => expired.add(token));
      held = holdUntilRenewed ? { renewedAfter: tokens.length, answered: false, released: false, waiting: [] } : undefined;
    },
    tokenLifetime: (seconds) => void (lifetime = seconds),
    refuse: (openid, errcodes) => void refusals.set(openid, [...errcodes]),
    close: () =>
      new Promise((resolve) => {
        releaseHeld();
        server.close(() => resolve());
      }),
  };
}
