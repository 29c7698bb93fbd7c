import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { BlockedTargetError, guardedLookup, literalHostRefused } from './target-address';
import { signatureHeaders } from './signatures';

/** At most this much of a receiver's answer is read (and the first part kept for the delivery log). */
const MAX_RESPONSE_BYTES = 4096;
const KEPT_RESPONSE_CHARS = 200;

/** What one attempt came to: success is a 2xx within the timeout. */
export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** An exchange's result, and whether it failed only because a kept-alive connection had been closed. */
interface Exchange {
  result: AttemptResult;
  staleSocket?: boolean;
}

export interface SenderOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
}

/**
 * POSTs one signed event to a webhook's URL: no redirect followed (a 3xx is a failure), the whole
 * exchange bounded by the timeout, at most a few KiB of the answer read, and the connection made only
 * to an address that passed the target check on this very attempt.
 */
export class WebhookSender {
  private readonly agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 64 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 64 }) };
  private readonly lookup;

  constructor(private readonly options: SenderOptions) {
    this.lookup = guardedLookup(options.allowPrivateTargets);
  }

  /**
   * One attempt. A kept-alive connection the receiver closed just as it was reused fails before the
   * request reached it (ECONNRESET on a reused socket): that is tried once more at once, on a new
   * connection, rather than counted as the receiver's failure.
   */
  async send(target: string, secret: string, eventId: string, body: string, signal?: AbortSignal): Promise<AttemptResult> {
    const deadline = Date.now() + this.options.timeoutMs;
    const first = await this.exchange(target, secret, eventId, body, signal, true, deadline);
    if (!first.staleSocket || Date.now() >= deadline) return first.result;
    return (await this.exchange(target, secret, eventId, body, signal, false, deadline)).result;
  }

  private async exchange(target: string, secret: string, eventId: string, body: string, signal: AbortSignal | undefined, pooled: boolean, deadline: number): Promise<Exchange> {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return { result: { ok: false, statusCode: null, error: 'invalid url' } };
    }
    if (literalHostRefused(url, this.options.allowPrivateTargets)) {
      return { result: { ok: false, statusCode: null, error: 'refused: the address is loopback, private or link-local' } };
    }
    if (signal?.aborted) return { result: { ok: false, statusCode: null, error: 'aborted: the delivering process stopped' } };
    const secure = url.protocol === 'https:';
    if (!secure && !(this.options.allowPrivateTargets && url.protocol === 'http:')) return { result: { ok: false, statusCode: null, error: 'refused: url must use https' } };
    const headers = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'loyalty-platform-webhooks/1',
      ...signatureHeaders(secret, eventId, body, Math.floor(Date.now() / 1000)),
    };
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: AttemptResult, staleSocket = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve({ result, staleSocket });
      };
      const agent = pooled ? (secure ? this.agents.https : this.agents.http) : false;
      const request = (secure ? httpsRequest : httpRequest)(url, { method: 'POST', headers, agent, lookup: this.lookup }, (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const text = Buffer.concat(chunks).toString('utf8').slice(0, KEPT_RESPONSE_CHARS);
          const ok = status >= 200 && status < 300;
          finish({ ok, statusCode: status, error: ok ? null : status >= 300 && status < 400 ? `redirect ${status} not followed` : `HTTP ${status}${text ? `: ${text}` : ''}` });
        };
        response.on('data', (chunk: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
          size += chunk.length;
          if (size >= MAX_RESPONSE_BYTES) {
            response.destroy();
            done();
          }
        });
        response.on('end', done);
        response.on('error', () => done());
      });
      const timer = setTimeout(() => {
        request.destroy();
        finish({ ok: false, statusCode: null, error: `timeout: no answer within ${this.options.timeoutMs} ms` });
      }, Math.max(0, deadline - Date.now()));
      const onAbort = () => {
        request.destroy();
        finish({ ok: false, statusCode: null, error: 'aborted: the delivering process stopped' });
      };
      signal?.addEventListener('abort', onAbort);
      request.on('error', (error) => {
        const code = (error as NodeJS.ErrnoException).code;
        const refused = error instanceof BlockedTargetError || (error as { cause?: unknown }).cause instanceof BlockedTargetError;
        const stale = pooled && request.reusedSocket && code === 'ECONNRESET';
        finish({ ok: false, statusCode: null, error: refused ? `refused: ${error.message}` : `${code ?? 'error'}: ${error.message}`.slice(0, 300) }, stale);
      });
      request.end(body);
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
