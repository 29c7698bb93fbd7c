import { AppError, unauthenticated, validationError } from '../../core/errors';

export interface ChatappSession {
  openId: string;
  unionId?: string;
}

export interface ChatappSettings {
  apiUrl?: string;
  appId?: string;
  appSecret?: string;
}

/** Client of the WeChat-compatible identity provider: exchanges a login code for the user's openid. */
export class ChatappClient {
  constructor(private readonly settings: ChatappSettings) {}

  /** A login code names the app it was issued for: a code of another app is refused (400 on `appId`); null, as left out, names none. */
  checkAppId(appId: string | null | undefined): void {
    if (appId != null && appId !== this.settings.appId) throw validationError([{ field: 'appId', message: 'appId is not this platform\'s chat-app app id' }]);
  }

  async exchangeCode(code: string): Promise<ChatappSession> {
    const { apiUrl, appId, appSecret } = this.settings;
    if (!apiUrl || !appId || !appSecret) {
      throw new AppError('UNAVAILABLE', 'Chat-app login is not configured (CHATAPP_API_URL, CHATAPP_APP_ID, CHATAPP_APP_SECRET)');
    }
    const url = new URL(`${apiUrl}/sns/jscode2session`);
    url.search = new URLSearchParams({ appid: appId, secret: appSecret, js_code: code, grant_type: 'authorization_code' }).toString();
    let body: { openid?: string; unionid?: string; errcode?: number; errmsg?: string };
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      body = (await response.json()) as typeof body;
    } catch {
      throw new AppError('UNAVAILABLE', 'The chat-app identity provider did not answer');
    }
    if (body.errcode || !body.openid) throw unauthenticated(`Chat-app login failed: ${body.errmsg ?? 'invalid code'}`);
    return { openId: body.openid, unionId: body.unionid };
  }
}
