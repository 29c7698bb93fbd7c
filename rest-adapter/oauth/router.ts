import express, { ErrorRequestHandler, Request, RequestHandler, Response, Router } from 'express';
import { oauthIssuerOf } from '../../core/auth/oauth';
import { API_SCOPES } from '../../core/auth/scopes';
import { Config } from '../../core/config';
import { FieldError } from '../../core/errors';
import { GraphqlAnswer, OperationExecutor } from '../../core/graphql-http';
import { OAUTH_OPERATIONS } from './operations';
import { answerInsufficientScope, answerInvalidToken } from '../v1/errors';
import { scopesOf } from '../v1/scopes';
import { CsrfTokens } from './csrf';
import { AUTHORIZATION_PARAMS, sendConsentPage, sendErrorPage } from './page';

interface OAuthParam {
  name: string;
  value: string;
}

interface AuthorizationOutcome {
  step: 'CONSENT' | 'REDIRECT' | 'REFUSED' | 'SIGN_IN_FAILED';
  redirectTo?: string | null;
  error?: string | null;
  errorDescription?: string | null;
  clientName?: string | null;
  scopes?: string[] | null;
}

interface OAuthErrorAnswer {
  status: number;
  error: string;
  errorDescription?: string | null;
  basic: boolean;
}

/** Query or form fields as the OAuth parameters the auth service reads; a repeated name stays repeated. */
function paramsOf(fields: unknown, only?: readonly string[]): OAuthParam[] {
  if (!fields || typeof fields !== 'object') return [];
  return Object.entries(fields as Record<string, unknown>).flatMap(([name, value]) => {
    if (only && !only.includes(name)) return [];
    const values = Array.isArray(value) ? value : [value];
    return values.filter((item): item is string => typeof item === 'string').map((item) => ({ name, value: item }));
  });
}

/** The single value of a field (undefined when missing or repeated). */
const single = (fields: Record<string, unknown>, name: string): string | undefined => (typeof fields[name] === 'string' ? (fields[name] as string) : undefined);

/** RFC 6749 §5.2 error body; 401 invalid_client carries WWW-Authenticate when the client used HTTP Basic. */
function sendOAuthError(res: Response, { status, error, errorDescription, basic }: OAuthErrorAnswer): void {
  if (status === 401 && basic) res.set('WWW-Authenticate', 'Basic realm="oauth", charset="UTF-8"');
  res.status(status).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json({ error, ...(errorDescription ? { error_description: errorDescription } : {}) });
}

/** A gateway failure on an OAuth endpoint: bad input is invalid_request, anything else a server error (logged by the caller). */
function failureOf(answer: GraphqlAnswer): OAuthErrorAnswer {
  const code = answer.errors?.[0]?.extensions?.code;
  if (code === 'VALIDATION' || code === 'BAD_USER_INPUT' || code === 'GRAPHQL_VALIDATION_FAILED') {
    return { status: 400, error: 'invalid_request', errorDescription: 'Malformed request parameters', basic: false };
  }
  if (code === 'RATE_LIMITED') return { status: 429, error: 'slow_down', errorDescription: 'Too many requests', basic: false };
  return { status: 503, error: 'temporarily_unavailable', errorDescription: 'The authorization server cannot answer now', basic: false };
}

/** Registration needs a credential holding `admin` (contract section 3), checked before the body is read. */
const requireAdminScope: RequestHandler = (_req, res, next) => {
  const principal = res.locals.principal;
  if (!principal) return answerInvalidToken(res);
  if (!scopesOf(principal).includes('admin')) return answerInsufficientScope(res, 'admin', 'Registering an OAuth client needs the "admin" scope');
  next();
};

/** Malformed JSON is bad client metadata (RFC 7591 §3.2.2), not the service envelope's 400. */
const malformedMetadata: ErrorRequestHandler = (error, _req, res, next) => {
  if (error?.type !== 'entity.parse.failed') return next(error);
  res.status(400).json({ error: 'invalid_client_metadata', error_description: 'The body is not valid JSON' });
};

const basicAuthorization = (req: Request): string | undefined => {
  const header = req.headers.authorization;
  return header && !/^Bearer\s/i.test(header) ? header : undefined;
};

export const OAUTH_REGISTRATION_PATH = '/oauth/register';
/** The endpoints that sign a user in or check a client's secret: rate limited by the client address. */
export const OAUTH_SIGN_IN_PATHS = ['/oauth/authorize', '/oauth/token', '/oauth/revoke', '/oauth/introspect'];

/**
 * The OAuth 2.0 authorization server's HTTP endpoints (contract section 3): metadata, registration,
 * the sign-in and consent page, token, revocation and introspection. Each runs one auth-subgraph
 * operation through the gateway; the rules live in the auth service. Mounted after the rate limits
 * (the sign-in form is limited per client IP as the staff login is).
 */
export function oauthRouter(config: Config, gateway: OperationExecutor): Router {
  const router = Router();
  const issuer = oauthIssuerOf(config.publicUrl);
  const csrf = new CsrfTokens(config.jwtSecret);
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 64 });
  const json = express.json({ limit: '64kb' });
  const run = (_req: Request, res: Response, operation: string, variables: Record<string, unknown>, authorization?: string) =>
    gateway({ query: OAUTH_OPERATIONS[operation], variables }, { authorization, requestId: res.locals.requestId });
  const handle =
    (handler: (req: Request, res: Response) => Promise<void>): RequestHandler =>
    (req, res, next) =>
      handler(req, res).catch(next);

  router.get('/.well-known/oauth-authorization-server', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=3600').json({
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      registration_endpoint: `${issuer}/oauth/register`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      introspection_endpoint: `${issuer}/oauth/introspect`,
      scopes_supported: [...API_SCOPES],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    });
  });

  router.post(
    OAUTH_REGISTRATION_PATH,
    requireAdminScope,
    json,
    malformedMetadata,
    handle(async (req, res) => {
      const metadata = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : undefined;
      if (!metadata) return void res.status(400).json({ error: 'invalid_client_metadata', error_description: 'The body must be a JSON object of client metadata' });
      const answer = await run(req, res, 'RegisterOAuthClient', { metadata }, req.headers.authorization);
      const client = (answer.data as { registerOAuthClient?: Record<string, any> } | null)?.registerOAuthClient;
      if (client) {
        return void res.status(201).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json({
          client_id: client.clientId,
          ...(client.clientSecret ? { client_secret: client.clientSecret } : {}),
          client_id_issued_at: client.clientIdIssuedAt,
          client_secret_expires_at: client.clientSecretExpiresAt,
          client_name: client.clientName,
          redirect_uris: client.redirectUris,
          grant_types: client.grantTypes,
          response_types: client.responseTypes,
          token_endpoint_auth_method: client.tokenEndpointAuthMethod,
          scope: client.scope,
        });
      }
      const error = answer.errors?.[0];
      const code = error?.extensions?.code;
      if (code === 'UNAUTHENTICATED') return answerInvalidToken(res);
      if (code === 'FORBIDDEN') return answerInsufficientScope(res, 'admin', error?.message);
      if (code === 'VALIDATION') {
        const details = (error?.extensions?.errors as FieldError[] | undefined) ?? [];
        const redirect = details.length > 0 && details.every((detail) => detail.field.startsWith('redirect_uris'));
        return void res.status(400).json({
          error: redirect ? 'invalid_redirect_uri' : 'invalid_client_metadata',
          error_description: details.map((detail) => `${detail.field}: ${detail.message}`).join('; ') || error?.message,
          details,
        });
      }
      throw new Error(`registerOAuthClient failed: ${error?.message ?? 'no answer'}`);
    }),
  );

  /** What an authorization step answers: the page, an error page, or the redirect. */
  const answerAuthorization = (req: Request, res: Response, outcome: AuthorizationOutcome, params: Record<string, string>, email?: string): void => {
    if (outcome.step === 'REDIRECT' && outcome.redirectTo) return void res.set('Cache-Control', 'no-store').redirect(302, outcome.redirectTo);
    if (outcome.step === 'CONSENT' || outcome.step === 'SIGN_IN_FAILED') {
      const failed = outcome.step === 'SIGN_IN_FAILED';
      return sendConsentPage(res, failed ? 401 : 200, {
        clientName: outcome.clientName ?? '',
        scopes: outcome.scopes ?? [],
        params,
        csrfToken: csrf.issue(req, res),
        error: failed ? (outcome.errorDescription ?? 'Invalid email or password') : undefined,
        email: failed ? email : undefined,
      });
    }
    sendErrorPage(res, 400, outcome.error ?? 'invalid_request', outcome.errorDescription ?? 'Invalid authorization request');
  };

  const singleParams = (fields: Record<string, unknown>) =>
    Object.fromEntries(AUTHORIZATION_PARAMS.flatMap((name) => (single(fields, name) !== undefined ? [[name, single(fields, name)!]] : [])));

  router.get(
    '/oauth/authorize',
    handle(async (req, res) => {
      const query = req.query as Record<string, unknown>;
      const answer = await run(req, res, 'OAuthAuthorizationRequest', { params: paramsOf(query, AUTHORIZATION_PARAMS) });
      const outcome = (answer.data as { oauthAuthorizationRequest?: AuthorizationOutcome } | null)?.oauthAuthorizationRequest;
      if (!outcome) return sendErrorPage(res, failureOf(answer).status === 400 ? 400 : 503, 'invalid_request', 'The authorization request could not be read');
      answerAuthorization(req, res, outcome, singleParams(query));
    }),
  );

  router.post(
    '/oauth/authorize',
    form,
    handle(async (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (!csrf.check(req, body.csrf_token)) {
        return sendErrorPage(res, 400, 'invalid_request', 'This form has expired or did not come from this site. Go back to the application and start again.');
      }
      const decision = single(body, 'decision');
      if (decision !== 'allow' && decision !== 'deny') return sendErrorPage(res, 400, 'invalid_request', 'Choose Allow or Deny');
      const email = single(body, 'email');
      const answer = await run(req, res, 'OAuthAuthorizationDecision', { params: paramsOf(body, AUTHORIZATION_PARAMS), decision, email, password: single(body, 'password') });
      const outcome = (answer.data as { oauthAuthorizationDecision?: AuthorizationOutcome } | null)?.oauthAuthorizationDecision;
      if (!outcome) {
        const failure = failureOf(answer);
        return sendErrorPage(res, failure.status === 429 ? 429 : failure.status === 400 ? 400 : 503, failure.error, failure.errorDescription ?? '');
      }
      answerAuthorization(req, res, outcome, singleParams(body), email);
    }),
  );

  const FIELDS = { OAuthToken: 'oauthToken', OAuthRevoke: 'oauthRevoke', OAuthIntrospect: 'oauthIntrospect' } as const;
  /** Token, revocation and introspection: form-encoded, client-authenticated (RFC 6749 §2.3, §3.2). */
  const clientCall = (operation: 'OAuthToken' | 'OAuthRevoke' | 'OAuthIntrospect', answer: (res: Response, data: Record<string, any>) => void) =>
    handle(async (req, res) => {
      if (!req.is('application/x-www-form-urlencoded')) {
        return sendOAuthError(res, { status: 400, error: 'invalid_request', errorDescription: 'The body must be application/x-www-form-urlencoded', basic: false });
      }
      const result = await run(req, res, operation, { params: paramsOf(req.body), authorization: basicAuthorization(req) });
      const data = (result.data as Record<string, any> | null)?.[FIELDS[operation]];
      if (!data) return sendOAuthError(res, failureOf(result));
      if (data.error) return sendOAuthError(res, data.error);
      answer(res, data);
    });

  router.post(
    '/oauth/token',
    form,
    clientCall('OAuthToken', (res, { token }) => {
      res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json({
        access_token: token.accessToken,
        token_type: token.tokenType,
        expires_in: token.expiresIn,
        ...(token.refreshToken ? { refresh_token: token.refreshToken } : {}),
        scope: token.scope,
      });
    }),
  );

  router.post(
    '/oauth/revoke',
    form,
    clientCall('OAuthRevoke', (res) => void res.set('Cache-Control', 'no-store').status(200).end()),
  );

  router.post(
    '/oauth/introspect',
    form,
    clientCall('OAuthIntrospect', (res, { introspection }) => {
      const body = Object.fromEntries(
        Object.entries({
          active: introspection.active,
          scope: introspection.scope,
          client_id: introspection.clientId,
          token_type: introspection.tokenType,
          exp: introspection.exp,
          iat: introspection.iat,
          sub: introspection.sub,
          iss: introspection.iss,
        }).filter(([, value]) => value !== null && value !== undefined),
      );
      res.set('Cache-Control', 'no-store').json(body);
    }),
  );

  return router;
}
