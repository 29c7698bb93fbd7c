import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export const CHATAPP_APP_ID = 'test-app-id';
export const CHATAPP_APP_SECRET = 'test-app-secret';

export interface FakeChatapp {
  url: string;
  calls: URLSearchParams[];
  close: () => Promise<void>;
}

/**
 * A stand-in for the WeChat-compatible identity provider: `jscode2session` answers an openid derived
 * from the code, or an errcode for codes starting with "bad" and for a wrong app id or secret.
 */
export async function startFakeChatapp(): Promise<FakeChatapp> {
  const calls: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    res.setHeader('content-type', 'application/json');
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
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
