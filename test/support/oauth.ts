import { createHash, randomBytes } from 'node:crypto';
import { TestPlatform, TestStaff, unique } from './test-platform';

/** A client registered through POST /oauth/register, with its secret when confidential. */
export interface RegisteredClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  scope: string;
  [key: string]: unknown;
}

export const REDIRECT_URI = 'https://app.example.com/callback';

export async function registerClient(platform: TestPlatform, admin: TestStaff, metadata: Record<string, unknown> = {}): Promise<RegisteredClient> {
  const response = await platform.api('POST', '/oauth/register', { token: admin.token, body: { client_name: unique('App '), redirect_uris: [REDIRECT_URI], ...metadata } });
  if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export const pkcePair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** An answer of the authorization endpoint as a browser sees it (redirects not followed). */
export interface PageAnswer {
  status: number;
  location: string | null;
  html: string;
  headers: Headers;
  /** The CSRF cookie the page set (name=value), to send back as the browser would. */
  cookie?: string;
}

export async function getAuthorize(platform: TestPlatform, params: Record<string, string | undefined>, query?: string): Promise<PageAnswer> {
  const search = query ?? new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
  const response = await fetch(`${platform.restUrl}/oauth/authorize?${search}`, { redirect: 'manual' });
  return pageAnswer(response);
}

export async function postAuthorize(platform: TestPlatform, form: Record<string, string>, cookie?: string): Promise<PageAnswer> {
  const response = await fetch(`${platform.restUrl}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(form).toString(),
  });
  return pageAnswer(response);
}

async function pageAnswer(response: Response): Promise<PageAnswer> {
  const setCookie = response.headers.get('set-cookie');
  return { status: response.status, location: response.headers.get('location'), html: await response.text(), headers: response.headers, cookie: setCookie?.split(';')[0] };
}

/** The hidden inputs of the consent page's form, by name. */
export function hiddenInputs(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1]] = match[2].replace(/&#(\d+);/g, (_all, code) => String.fromCharCode(Number(code)));
  }
  return fields;
}

/**
 * Signs in on the consent page and answers `decision`, as a browser does: GET the page, POST its form
 * (hidden inputs, CSRF cookie) with the staff member's e-mail and password.
 */
export async function consent(platform: TestPlatform, staff: Pick<TestStaff, 'email' | 'password'>, params: Record<string, string | undefined>, decision: 'allow' | 'deny' = 'allow'): Promise<PageAnswer> {
  const page = await getAuthorize(platform, params);
  if (page.status !== 200) throw new Error(`consent page: ${page.status} ${page.location ?? page.html}`);
  return postAuthorize(platform, { ...hiddenInputs(page.html), email: staff.email, password: staff.password, decision }, page.cookie);
}

/** POST to a form-encoded OAuth endpoint; JSON answer. */
export async function postForm(platform: TestPlatform, path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(`${platform.restUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

export const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** A code for the client: the consent page allowed by `staff`, the code read from the redirect. */
export async function authorizationCode(platform: TestPlatform, staff: TestStaff, client: RegisteredClient, extra: Record<string, string> = {}) {
  const pkce = pkcePair();
  const answer = await consent(platform, staff, {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0],
    state: 'xyz',
    scope: 'read write',
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    ...extra,
  });
  if (answer.status !== 302 || !answer.location) throw new Error(`no redirect: ${answer.status} ${answer.html}`);
  const code = new URL(answer.location).searchParams.get('code');
  if (!code) throw new Error(`no code in ${answer.location}`);
  return { code, verifier: pkce.verifier };
}
