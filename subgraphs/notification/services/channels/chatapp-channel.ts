import { Recipient } from '../notification-supergraph';
import { Channel, ChannelFailure, neverSent, OutgoingMessage, untilAborted } from './channel';

export interface ChatappMessengerSettings {
  apiUrl?: string;
  appId?: string;
  appSecret?: string;
  templateId?: string;
  /** A mini-program page hosting a web-view: a message with a link opens `<page>?url=<the link>`. */
  webviewPage?: string;
  /** The longest one token fetch may take (shared by the sends waiting for it). */
  timeoutMs: number;
}

/** errcodes meaning the access token is no longer good: fetch a new one and try once more. */
const TOKEN_ERRORS = new Set([40001, 40014, 42001]);
/** errcodes meaning "not now": system busy, rate limited. */
const BUSY_ERRORS = new Set([-1, 45009, 45011]);
/** A token is renewed this long before the provider says it ends. */
const RENEW_BEFORE_MS = 5 * 60_000;

interface ProviderAnswer {
  errcode?: number;
  errmsg?: string;
  access_token?: string;
  expires_in?: number;
}

/**
 * The `page` of a subscribe message: a page of the mini-program, never a URL (the provider refuses
 * one). With a web-view page configured, that page with the tracked link as its `url` parameter; else
 * none (the message opens no page).
 */
export function chatappPage(webviewPage: string | undefined, link: string | null): string | undefined {
  return webviewPage && link ? `${webviewPage}?url=${encodeURIComponent(link)}` : undefined;
}

/**
 * The chat-app's subscribe-message API (CONTRACT-v1 section 5): an access token from
 * `GET /cgi-bin/token?grant_type=client_credential`, kept until shortly before it expires (per process),
 * then `POST /cgi-bin/message/subscribe/send?access_token=` with CHATAPP_NOTIFY_TEMPLATE_ID. An
 * expired-token error renews the token and sends once more. Concurrent sends share one token fetch,
 * and a send drops the cached token only if it is still the one that failed (another send may have
 * renewed it already).
 */
export class ChatappChannel implements Channel {
  private token?: { value: string; renewAt: number };
  private fetching?: Promise<string>;

  constructor(private readonly settings: ChatappMessengerSettings) {}

  async send(recipient: Recipient, message: OutgoingMessage, signal: AbortSignal): Promise<void> {
    if (!recipient.openId) throw new ChannelFailure('the customer has no chat-app identity', false);
    const { templateId } = this.settings;
    if (!templateId) throw new ChannelFailure('CHATAPP_NOTIFY_TEMPLATE_ID is not configured', false);
    const page = chatappPage(this.settings.webviewPage, message.actionUrl);
    const payload = {
      touser: recipient.openId,
      template_id: templateId,
      ...(page ? { page } : {}),
      data: { thing1: { value: message.title.slice(0, 20) }, thing2: { value: message.body.slice(0, 20) } },
    };
    const token = await this.accessToken(signal);
    let answer = await this.post(token, payload, signal);
    if (answer.errcode !== undefined && TOKEN_ERRORS.has(answer.errcode)) {
      if (this.token?.value === token) this.token = undefined;
      answer = await this.post(await this.accessToken(signal), payload, signal);
    }
    if (!answer.errcode) return;
    throw new ChannelFailure(`chat-app errcode ${answer.errcode}: ${answer.errmsg ?? ''}`.slice(0, 200), BUSY_ERRORS.has(answer.errcode));
  }

  private accessToken(signal: AbortSignal): Promise<string> {
    if (this.token && Date.now() < this.token.renewAt) return Promise.resolve(this.token.value);
    this.fetching ??= this.fetchToken().finally(() => (this.fetching = undefined));
    return untilAborted(this.fetching, signal);
  }

  private async fetchToken(): Promise<string> {
    const { apiUrl, appId, appSecret } = this.settings;
    if (!apiUrl || !appId || !appSecret) throw new ChannelFailure('the chat-app is not configured (CHATAPP_API_URL, CHATAPP_APP_ID, CHATAPP_APP_SECRET)', false);
    const url = new URL(`${apiUrl}/cgi-bin/token`);
    url.search = new URLSearchParams({ grant_type: 'client_credential', appid: appId, secret: appSecret }).toString();
    // Its own deadline, not one send's: every send waiting for this token shares the fetch.
    const answer = await this.call(url, { method: 'GET' }, AbortSignal.timeout(this.settings.timeoutMs));
    if (!answer.access_token) throw new ChannelFailure(`chat-app token: errcode ${answer.errcode}: ${answer.errmsg ?? ''}`, answer.errcode !== undefined && BUSY_ERRORS.has(answer.errcode));
    const lifetimeMs = (answer.expires_in ?? 7200) * 1000;
    this.token = { value: answer.access_token, renewAt: Date.now() + Math.max(lifetimeMs - RENEW_BEFORE_MS, lifetimeMs / 2) };
    return answer.access_token;
  }

  private post(token: string, payload: object, signal: AbortSignal): Promise<ProviderAnswer> {
    const url = new URL(`${this.settings.apiUrl}/cgi-bin/message/subscribe/send`);
    url.search = new URLSearchParams({ access_token: token }).toString();
    return this.call(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) }, signal);
  }

  private async call(url: URL, init: RequestInit, signal: AbortSignal): Promise<ProviderAnswer> {
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal });
    } catch (error) {
      throw new ChannelFailure(`chat-app: ${(error as Error).message}`, neverSent(error));
    }
    if (response.status === 429 || response.status >= 500) throw new ChannelFailure(`chat-app answered ${response.status}`, true);
    try {
      return (await response.json()) as ProviderAnswer;
    } catch {
      throw new ChannelFailure(`chat-app answered ${response.status} without JSON`, false);
    }
  }
}
