import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export const TRANSLATE_KEY = 'test-translate-key';

export interface TranslateCall {
  q: string;
  source: string;
  target: string;
  format: string;
  api_key?: string;
}

export interface FakeTranslate {
  url: string;
  calls: TranslateCall[];
  /** While true, every request is answered 503. */
  down: boolean;
  /** Answers `translatedText` with this instead of translating, while set (an untrusted provider). */
  answer?: (call: TranslateCall) => string;
  /** Texts answered 500, whatever else is set (a text the provider never manages). */
  failWhen?: (call: TranslateCall) => boolean;
  close: () => Promise<void>;
}

/**
 * A stand-in for a LibreTranslate-compatible server: `POST /translate {q, source, target, format, api_key}`
 * answers `{translatedText}`, each text run prefixed with `[<target>] ` (between tags for `html`, the
 * tags kept). A wrong key is 403, as LibreTranslate answers.
 */
export async function startFakeTranslate(): Promise<FakeTranslate> {
  const fake: FakeTranslate = {
    url: '',
    calls: [],
    down: false,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method !== 'POST' || req.url !== '/translate') {
        res.statusCode = 404;
        return void res.end('{"error":"Not Found"}');
      }
      if (fake.down) {
        res.statusCode = 503;
        return void res.end('{"error":"unavailable"}');
      }
      const call = JSON.parse(Buffer.concat(chunks).toString('utf8')) as TranslateCall;
      fake.calls.push(call);
      if (call.api_key !== TRANSLATE_KEY) {
        res.statusCode = 403;
        return void res.end('{"error":"Invalid API key"}');
      }
      if (fake.failWhen?.(call)) {
        res.statusCode = 500;
        return void res.end('{"error":"translation failed"}');
      }
      const translatedText = fake.answer ? fake.answer(call) : translate(call);
      res.end(JSON.stringify({ translatedText }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

function translate({ q, target, format }: TranslateCall): string {
  if (format !== 'html') return `[${target}] ${q}`;
  return q.replace(/>([^<]+)</g, (_, text: string) => `>[${target}] ${text}<`).replace(/^([^<]+)/, `[${target}] $1`);
}
