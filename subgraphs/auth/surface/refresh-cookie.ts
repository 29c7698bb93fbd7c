import { RequestFacts, ResponseCookies } from '../../../core/rest/route';

export const REFRESH_COOKIE = 'refreshToken';
const REFRESH_COOKIE_MAX_AGE_MS = 30 * 24 * 3600 * 1000;

/** The refresh token as an HTTP-only, same-site cookie; Secure when the request came over HTTPS. */
export function setRefreshCookie(res: ResponseCookies, payload: { refreshToken?: string }, req: RequestFacts): void {
  if (!payload?.refreshToken) return;
  res.cookie(REFRESH_COOKIE, payload.refreshToken, {
    httpOnly: true,
    sameSite: 'strict',
    secure: req.secure,
    path: '/auth/api',
    maxAge: REFRESH_COOKIE_MAX_AGE_MS,
  });
}
