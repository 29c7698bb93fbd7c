import { EntityManager } from '@mikro-orm/postgresql';
import { OAUTH_CODE_TTL_SECONDS } from '../../../core/auth/oauth';
import { API_SCOPES } from '../../../core/auth/scopes';
import { hashToken, randomToken } from '../../../core/auth/secrets';
import { AppError } from '../../../core/errors';
import { AuthDeps } from '../auth-deps';
import { OAuthAuthorizationCode } from '../entities/oauth-authorization-code';
import { OAuthClient } from '../entities/oauth-client';
import { OAuthAuthorizationOutcome, OAuthParamInput } from '../types/oauth.types';
import { StaffService } from './staff.service';
import { findActiveClient, OAuthParams, oauthParams, parseScope } from './oauth-params';
import { oauthSubjectPrincipal, scopesFor } from './oauth-model';

/** RFC 7636 §4.2: 43 to 128 unreserved characters (the base64url of a SHA-256 is 43). */
const CODE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

/** A valid authorization request, as the consent page and the code need it. */
interface CheckedRequest {
  client: OAuthClient;
  redirectUri: string;
  scopes: string[];
  state?: string;
  codeChallenge?: string;
}

/**
 * The authorization endpoint's rules (contract section 3): which requests are refused with an error
 * page (unknown client, unregistered redirect URI: never redirected, RFC 6749 §4.1.2.1), which are
 * sent back to the client with an error, and the staff sign-in and consent that issue a code.
 */
export class OAuthAuthorizationService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: AuthDeps,
    private readonly issuer: string,
  ) {}

  /** What GET /oauth/authorize shows: the consent page, an error page, or a redirect with an error. */
  async check(given: OAuthParamInput[]): Promise<OAuthAuthorizationOutcome> {
    const checked = await this.checkRequest(oauthParams(given));
    if ('step' in checked) return checked;
    return { step: 'CONSENT', clientName: checked.client.name, scopes: checked.scopes };
  }

  /**
   * The consent page's answer. `deny` → access_denied. `allow` → the staff password check of login
   * (a failure shows the page again), then a code for the requested scopes the user's role holds.
   */
  async decide(given: OAuthParamInput[], decision: 'allow' | 'deny', email: string | undefined, password: string | undefined): Promise<OAuthAuthorizationOutcome> {
    const checked = await this.checkRequest(oauthParams(given));
    if ('step' in checked) return checked;
    if (decision === 'deny') return this.redirectError(checked, 'access_denied', 'The user denied the request');
    const signInFailed: OAuthAuthorizationOutcome = { step: 'SIGN_IN_FAILED', clientName: checked.client.name, scopes: checked.scopes, errorDescription: 'Invalid email or password' };
    if (!email || !password) return signInFailed;
    let staffId: string;
    try {
      staffId = (await new StaffService(this.em, this.deps).authenticate(email, password)).id;
    } catch (error) {
      if (error instanceof AppError && error.code === 'UNAUTHENTICATED') return signInFailed;
      throw error;
    }
    const principal = await oauthSubjectPrincipal(this.em, 'staff', staffId);
    const scopes = principal ? scopesFor(principal, checked.scopes) : [];
    if (scopes.length === 0) return this.redirectError(checked, 'invalid_scope', 'Your role holds none of the requested scopes');
    const code = randomToken(32);
    this.em.create(OAuthAuthorizationCode, {
      codeHash: hashToken(code),
      client: checked.client,
      staffId,
      redirectUri: checked.redirectUri,
      scopes,
      codeChallenge: checked.codeChallenge ?? null,
      codeChallengeMethod: checked.codeChallenge ? 'S256' : null,
      expiresAt: new Date(Date.now() + OAUTH_CODE_TTL_SECONDS * 1000),
    });
    await this.em.flush();
    return { step: 'REDIRECT', redirectTo: this.redirectTo(checked.redirectUri, { code, state: checked.state }) };
  }

  private async checkRequest(params: OAuthParams): Promise<CheckedRequest | OAuthAuthorizationOutcome> {
    const refused = (error: string, errorDescription: string): OAuthAuthorizationOutcome => ({ step: 'REFUSED', error, errorDescription });
    const clientId = params.get('client_id');
    if (!clientId || params.repeated.includes('client_id')) return refused('invalid_client', 'The client_id is missing or repeated');
    const client = await findActiveClient(this.em, clientId);
    if (!client || !client.grantTypes.includes('authorization_code')) return refused('invalid_client', 'No client is registered with this client_id');
    const given = params.get('redirect_uri');
    if (params.repeated.includes('redirect_uri')) return refused('invalid_request', 'The redirect_uri is repeated');
    // Without redirect_uri, the only registered one (RFC 6749 §3.1.2.3); given, it must be registered exactly.
    const redirectUri = given ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
    if (!redirectUri || !client.redirectUris.includes(redirectUri)) return refused('invalid_request', 'The redirect_uri is missing or not registered for this client');
    const state = params.get('state');
    const request: CheckedRequest = { client, redirectUri, scopes: [], state };
    if (params.repeated.length > 0) return this.redirectError(request, 'invalid_request', `Repeated parameter: ${params.repeated.join(', ')}`);
    const responseType = params.get('response_type');
    if (!responseType) return this.redirectError(request, 'invalid_request', 'Missing parameter: response_type');
    if (responseType !== 'code') return this.redirectError(request, 'unsupported_response_type', 'Only response_type=code is supported');
    const scope = params.get('scope');
    const scopes = scope === undefined ? client.scopes : parseScope(scope);
    if (!scopes || scopes.some((item) => !(API_SCOPES as readonly string[]).includes(item) || !client.scopes.includes(item))) {
      return this.redirectError(request, 'invalid_scope', `The client may ask for: ${client.scopes.join(' ')}`);
    }
    request.scopes = API_SCOPES.filter((item) => scopes.includes(item));
    const challenge = params.get('code_challenge');
    const method = params.get('code_challenge_method');
    if (challenge === undefined) {
      if (client.isPublic) return this.redirectError(request, 'invalid_request', 'A public client must send a PKCE code_challenge (S256)');
      if (method !== undefined) return this.redirectError(request, 'invalid_request', 'code_challenge_method without code_challenge');
    } else {
      // OAuth 2.1: S256 only; a missing method would mean `plain`, which is refused too.
      if (method !== 'S256') return this.redirectError(request, 'invalid_request', 'code_challenge_method must be S256');
      if (!CODE_CHALLENGE.test(challenge)) return this.redirectError(request, 'invalid_request', 'code_challenge must be 43 to 128 characters of [A-Za-z0-9-._~]');
      request.codeChallenge = challenge;
    }
    return request;
  }

  private redirectError(request: Pick<CheckedRequest, 'redirectUri' | 'state'>, error: string, description: string): OAuthAuthorizationOutcome {
    return { step: 'REDIRECT', redirectTo: this.redirectTo(request.redirectUri, { error, error_description: description, state: request.state }), error, errorDescription: description };
  }

  /** The redirect URI with the answer's parameters and `iss` (RFC 9207: the client checks who answered). */
  private redirectTo(redirectUri: string, answer: Record<string, string | undefined>): string {
    const url = new URL(redirectUri);
    for (const [name, value] of Object.entries(answer)) if (value !== undefined) url.searchParams.set(name, value);
    url.searchParams.set('iss', this.issuer);
    return url.toString();
  }
}
