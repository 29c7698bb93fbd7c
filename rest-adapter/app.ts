import cookieParser from 'cookie-parser';
import express, { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';
import { GraphQLSchema, parse } from 'graphql';
import { randomUUID } from 'node:crypto';
import { InternalCredential } from '../core/auth/internal-credential';
import { AccessTokens } from '../core/auth/jwt';
import { Config } from '../core/config';
import { AppError, FieldError, forbidden, STATUS_BY_CODE, validationError } from '../core/errors';
import { Caller, OperationExecutor } from '../core/graphql-http';
import { Logger, REQUEST_ID_HEADER } from '../core/logger';
import { MAX_NESTING, nestedDeeperThan } from '../core/validation';
import { isUnavailable, logFailure, unavailable } from '../core/unavailable';
import { livenessRoute, readinessRoute } from '../core/db/readiness';
import { observeHttp } from '../core/metrics';
import { CallerRateLimiter, limitRequest } from '../core/rate-limit';
import { FileStorage, LocalFileStorage } from '../core/storage/file-storage';
import { signedDownload } from './signed-download';
import { errorBody, errorFromGraphql, retryAfterOf, successBody } from './envelope';
import { gatewayOverHttp } from '../core/gateway-link';
import { Access, defaultVariables, isV1Route, operationNameOf, Route, RouteInput, V1_BASE, V1PlatformFailure } from '../core/rest/route';
import { DomainSurface } from '../core/rest/surface';
import { v1Access, v1ContextOf } from './v1/access';
import { apiKeyCredential } from './v1/api-keys';
import { fromV1 } from '../core/rest/case';
import { answerV1Failure, isV1Path, v1Body, V1FailureContext, v1ListBody } from './v1/envelope';
import { v1ErrorBody, v1ErrorOf } from './v1/errors';
import { v1OpenApi } from './v1/openapi';
import { serveApiReference } from './api-reference';
import { idempotencyKeyOf } from './v1/idempotency';
import { eventStream } from './event-stream';
import { OAuthAccessTokenCredentials } from './oauth/access-tokens';
import { OAUTH_REGISTRATION_PATH, OAUTH_SIGN_IN_PATHS, oauthRouter } from './oauth/router';
import { discardUploads, serveFiles, uploadHandler } from './uploads';
import { OperationVariables, ValueSource } from './variables';
import { join } from 'node:path';

export interface RestAppOptions {
  config: Config;
  apiSchema: GraphQLSchema;
  logger: Logger;
  /** Shared with the other adapters and gateways (PostgreSQL). */
  rateLimiter: CallerRateLimiter;
  /** The gateway in this process; without it the adapter calls GATEWAY_URL over HTTP. */
  gateway?: OperationExecutor;
  /** What it serves: every domain's routes, v1 components, public event types, event streams and signed downloads (subgraphs/registry.ts `platformSurface`). */
  surface: Pick<Required<DomainSurface>, 'routes' | 'components' | 'publicEvents'> & Pick<DomainSurface, 'streams' | 'downloads'>;
  storage?: LocalFileStorage;
  /** Whether this process reaches the database (`/readyz`); without it, whether the gateway answers its health query. */
  ready?: () => Promise<boolean>;
}

/** What a platform error says of itself beyond its message: the entity not found, a refusal's reason. */
function identityOf(error: { extensions?: Record<string, unknown> }): Pick<V1PlatformFailure, 'entity' | 'reason'> {
  const { entity, reason } = error.extensions ?? {};
  return { ...(typeof entity === 'string' ? { entity } : {}), ...(typeof reason === 'string' ? { reason } : {}) };
}

/** Whether the gateway answers: the adapter's health and, without a database of its own, its readiness. */
export const HEALTH = 'query Health { health { ok } }';

/** The REST adapter: each documented path runs one gateway operation and answers in the spec's envelope. */
export function createRestApp(options: RestAppOptions): Express {
  const { config, logger } = options;
  const internal = new InternalCredential(config.internalSecret);
  const gateway = options.gateway ?? gatewayOverHttp(config.gatewayUrl, internal);
  const storage = options.storage ?? new LocalFileStorage(join(config.dataDir, 'uploads'), config.publicUrl);
  const app = express();
  app.disable('x-powered-by');
  // Answers are per caller and change with every write: an ETag would hash every body for no reuse.
  app.disable('etag');
  app.set('trust proxy', config.trustProxy);
  app.use(observeHttp('rest'));
  app.use(requestContext(logger));
  app.use(requestDeadline(config.deadlines.requestMs, logger));
  const gatewayHealthy = () =>
    gateway({ query: HEALTH }, { requestId: randomUUID() })
      .then((result) => result.data?.health !== undefined && !result.errors)
      .catch(() => false);
  app.get('/healthz', async (_req, res) => {
    const healthy = await gatewayHealthy();
    res.status(healthy ? 200 : 503).json({ statusCode: healthy ? 200 : 503, data: { status: healthy ? 'ok' : 'unavailable' } });
  });
  app.get('/livez', livenessRoute);
  app.get('/readyz', readinessRoute(options.ready ?? gatewayHealthy));
  app.use(V1_BASE, apiKeyCredential(gateway));
  // Registration of OAuth clients takes every Bearer credential with the admin scope (contract section 3).
  app.use(OAUTH_REGISTRATION_PATH, apiKeyCredential(gateway));
  app.use([V1_BASE, OAUTH_REGISTRATION_PATH], new OAuthAccessTokenCredentials(gateway, config.jwtSecret).middleware);
  for (const route of options.surface.routes.filter((candidate) => candidate.limitByAddress)) app[route.method](route.path, limitByAddress);
  app.use(OAUTH_SIGN_IN_PATHS, limitByAddress);
  app.use(rateLimit(options.rateLimiter, new AccessTokens(config.jwtSecret)));
  app.use('/files', ...serveFiles(storage.directory));
  for (const download of options.surface.downloads ?? []) app.get(download.path(':id'), signedDownload(download, config, logger));
  app.use(cookieParser());
  const openApi = v1OpenApi(options.surface, options.apiSchema);
  app.get(`${V1_BASE}/openapi.json`, (_req, res) => void res.json(openApi));
  serveApiReference(app, `${V1_BASE}/docs`, `${V1_BASE}/openapi.json`);
  app.use(oauthRouter(config, gateway));
  const { heartbeatSeconds, maxOpen } = config.streams;
  for (const stream of options.surface.streams ?? []) {
    app.get(stream.path, requireToken, eventStream(stream, { apiSchema: options.apiSchema, gatewayUrl: config.gatewayUrl, heartbeatSeconds, maxOpen, logger, internal }));
  }
  for (const route of options.surface.routes) {
    if (route.upload && !route.public && !route.authorize) throw new Error(`Route ${route.method.toUpperCase()} ${route.path} takes uploads but declares no authorize`);
    if (isV1Route(route) && (route.upload || route.authorize || !isV1Path(route.path))) {
      throw new Error(`v1 route ${route.method.toUpperCase()} ${route.path} must live under ${V1_BASE} and declare scope, customer access or public only`);
    }
    const handlers = isV1Route(route) ? [v1Access(route), ...jsonBody] : [
      ...(route.public ? [] : [requireToken]),
      ...(route.authorize ? [authorize(route.authorize)] : []),
      ...jsonBody,
      ...(route.upload ? uploadHandler(route.upload, storage) : []),
    ];
    app[route.method](route.path, ...(route.credential ? [noStore] : []), ...handlers, routeHandler(route, options.apiSchema, gateway, storage));
  }
  app.use((req, res) => void res.status(404).json(isV1Path(req.path) ? v1ErrorBody('NOT_FOUND', 'Not found') : errorBody(404, 'Not found')));
  app.use(errorHandler(logger));
  return app;
}

function routeHandler(route: Route, apiSchema: GraphQLSchema, gateway: OperationExecutor, storage: FileStorage): RequestHandler {
  const document = route.document;
  const variables = new OperationVariables(apiSchema, parse(document));
  const v1 = isV1Route(route) ? v1ContextOf(route) : undefined;
  if (route.idempotent && !/\$idempotencyKey\b/.test(document)) throw new Error(`Idempotent route ${route.method.toUpperCase()} ${route.path}: ${operationNameOf(document)} declares no $idempotencyKey`);
  return async (req, res, next) => {
    let succeeded = false;
    try {
      const given: RouteInput = {
        params: req.params as Record<string, string>,
        query: req.query as Record<string, unknown>,
        body: req.body && typeof req.body === 'object' ? req.body : {},
        cookies: req.cookies ?? {},
        headers: req.headers,
        uploads: res.locals.uploads ?? {},
      };
      const input = v1 ? v1Input(given, route) : given;
      const built = (route.variables ?? defaultVariables)(input);
      if (route.idempotent) built.idempotencyKey = idempotencyKeyOf(req.headers);
      const caller = { authorization: req.headers.authorization, requestId: res.locals.requestId };
      const { values, errors, rest } = variables.coerce(built, sourceOf(req));
      if (errors.length > 0) throw validationError([...errors, ...(rest ? await otherFieldErrors(gateway, document, rest, caller, errors) : [])]);
      const result = await gateway({ query: document, variables: values }, caller);
      // The deadline answered meanwhile (requestDeadline): the outcome has no one to go to.
      if (res.headersSent) return;
      if (result.errors?.length || !result.data) {
        await discardUploads(res, storage);
        const first = result.errors?.[0] ?? { message: 'Empty answer from the gateway' };
        const error = errorFromGraphql(first);
        const retryAfter = retryAfterOf(first);
        if (retryAfter) res.set('Retry-After', retryAfter);
        if (v1) return answerV1Failure(res, v1, error.statusCode, error.data.message, error.data.errors, error.data.data, identityOf(first));
        return void res.status(error.statusCode).json(error);
      }
      succeeded = true;
      const payload = route.payload ? route.payload(result.data, input) : Object.values(result.data)[0];
      route.after?.(res, payload, req);
      if (route.redirect) return void res.redirect(302, route.redirect(payload));
      const status = route.status ?? 200;
      if (v1 && status === 204) return void res.status(204).end();
      if (v1) return void res.status(status).json(route.envelope === 'v1List' ? v1ListBody(payload as never, route.pageCounts ?? false) : v1Body(payload));
      if (route.envelope === 'empty') return void res.status(status).end();
      const message = typeof route.message === 'function' ? route.message(result.data) : route.message;
      res.status(status).json(successBody(route.envelope, status, payload, message ?? 'Success'));
    } catch (error) {
      // Files stay once the operation succeeded: the record it wrote refers to them.
      if (!succeeded) await discardUploads(res, storage);
      next(error);
    }
  };
}

/**
 * A v1 request as the operation reads it: query and body keys in camelCase (`date_from` → `dateFrom`,
 * nested too), and a v1 list's page size 20 unless given (contract section 1).
 */
function v1Input(input: RouteInput, route: Route): RouteInput {
  const query = fromV1(input.query) as Record<string, unknown>;
  if (route.envelope === 'v1List' && query.limit === undefined) query.limit = '20';
  return { ...input, query, body: fromV1(input.body) as Record<string, unknown>, rawBody: input.body };
}

/** Where the request's values come from: a JSON body, multipart fields, or the query string alone. */
const sourceOf = (req: Request): ValueSource => (req.is('multipart/form-data') ? 'multipart' : req.is('application/json') ? 'json' : 'query');

/**
 * The field errors the subgraphs find in the rest of a request that has type errors (its variables
 * without the fields in error), checked without running anything, so that one 400 names every bad
 * field. Fields already named, and whatever keeps the check from answering, add nothing.
 */
async function otherFieldErrors(gateway: OperationExecutor, query: string, variables: Record<string, unknown>, caller: Caller, named: FieldError[]): Promise<FieldError[]> {
  const answer = await gateway({ query, variables }, { ...caller, validateOnly: true }).catch(() => undefined);
  const covered = (field: string) => named.some((error) => field === error.field || field.startsWith(`${error.field}.`));
  return (answer?.errors ?? [])
    .filter((error) => error.extensions?.code === 'VALIDATION')
    .flatMap((error) => (error.extensions?.errors as FieldError[] | undefined) ?? [])
    .filter((error) => !covered(error.field));
}

/**
 * A JSON body is an object (express.json also takes an array, which no route reads as its body), nested
 * at most MAX_NESTING deep (the v1 surface renames keys at every depth, and the gateway sends it on).
 */
const jsonBody: RequestHandler[] = [
  express.json({ limit: '1mb' }),
  (req, _res, next) => {
    if (Array.isArray(req.body)) return next(validationError([{ field: 'body', message: 'the body must be a JSON object' }]));
    if (nestedDeeperThan(req.body)) return next(validationError([{ field: 'body', message: `the body nests arrays and objects more than ${MAX_NESTING} deep` }]));
    next();
  },
];

/** Marks a request that checks a secret or issues a credential: the rate limit counts it by the client address. */
const limitByAddress: RequestHandler = (_req, res, next) => {
  res.locals.limitByAddress = true;
  next();
};

/** Per-caller rate limits: past the limit, 429 with Retry-After in the service envelope. */
function rateLimit(limiter: CallerRateLimiter, tokens: AccessTokens): RequestHandler {
  return async (req, res, next) => {
    try {
      if (await limitRequest(limiter, tokens, req, res, res.locals.limitByAddress === true)) return next();
      if (isV1Path(req.path)) return void res.status(429).json(v1ErrorBody('RATE_LIMITED', 'Too many requests: rate limit exceeded'));
      res.status(429).json(errorBody(429, 'Too many requests: rate limit exceeded'));
    } catch (error) {
      next(error);
    }
  };
}

/** A credential route's answers, whatever they are, are kept by no cache (RFC 6749 section 5.1 asks it of token answers). */
const noStore: RequestHandler = (_req, res, next) => {
  res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  next();
};

/** A route that needs a Bearer token answers 401 naming what is wrong with it (Part 2), before reading the body or files. */
const requireToken: RequestHandler = (req, res, next) => {
  if (res.locals.principal) return next();
  res.status(401).json(errorBody(401, req.headers.authorization ? 'Unauthorized: invalid or expired token' : 'Unauthorized: missing token (Authorization: Bearer <access token>)'));
};

/** The route's access check, before its body or files are read (the subgraph checks again): 403 when refused. */
const authorize =
  (allowed: Access): RequestHandler =>
  (_req, res, next) =>
    next(res.locals.principal && allowed(res.locals.principal) ? undefined : forbidden());

/** Carries the caller's X-Request-Id (or a new one) through the gateway to the subgraphs, and logs each request. */
function requestContext(logger: Logger): RequestHandler {
  return (req: Request, res: Response, next) => {
    const given = req.get(REQUEST_ID_HEADER);
    const requestId = given && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
    res.locals.requestId = requestId;
    res.set(REQUEST_ID_HEADER, requestId);
    if (!logger.isLevelEnabled('info')) return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ reqId: requestId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}

/**
 * Every request answers within `ms` (REQUEST_TIMEOUT_MS): past it, one that has not begun its answer
 * answers 503 with Retry-After in its surface's envelope. The work under way goes on until its own
 * limits end it (each statement and idle transaction has the same deadline on the database); what it
 * answers then is dropped. A stream (server-sent events, a file) has begun its answer and is left alone.
 */
function requestDeadline(ms: number, logger: Logger): RequestHandler {
  const answer = errorHandler(logger);
  return (req, res, next) => {
    const timer = setTimeout(() => {
      if (res.headersSent) return;
      logger.warn({ reqId: res.locals.requestId, method: req.method, path: req.path, deadlineMs: ms }, 'request deadline passed: answered 503');
      answer(unavailable(), req, res, () => undefined);
    }, ms);
    res.on('close', () => clearTimeout(timer));
    next();
  };
}

/** What a failed request answers, whatever the surface: the status, message and field errors. */
interface Failure {
  status: number;
  message: string;
  fieldErrors?: FieldError[];
  error?: AppError;
}

/** Classifies an error thrown while serving a request; logs what the client did not cause. */
function failureOf(error: any, logger: Logger, requestId: string): Failure {
  if (!(error instanceof AppError) && isUnavailable(error)) {
    logFailure(logger, error, 'request failed', { reqId: requestId });
    return failureOf(unavailable(error), logger, requestId);
  }
  if (error instanceof AppError) {
    const status = STATUS_BY_CODE[error.code];
    if (status >= 500 && error.code !== 'UNAVAILABLE') logger.error({ err: error.originalError ?? error, reqId: requestId }, error.message);
    return { status, message: error.message, fieldErrors: error.fieldErrors, error };
  }
  if (error?.type === 'entity.parse.failed') return { status: 400, message: 'Malformed JSON body', fieldErrors: [{ field: 'body', message: 'body is not valid JSON' }] };
  const status = typeof error?.status === 'number' ? error.status : undefined;
  if (status && status >= 400 && status < 500) return { status, message: error.expose ? error.message : 'Bad request' };
  logger.error({ err: error, reqId: requestId }, 'unexpected error');
  return { status: 500, message: 'Internal server error' };
}

function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    // Answered already: by the deadline (requestDeadline), which this late failure comes after.
    if (res.headersSent) return;
    const { status, message, fieldErrors, error: appError } = failureOf(error, logger, res.locals.requestId);
    const retryAfter = appError && retryAfterOf(appError);
    if (retryAfter) res.set('Retry-After', retryAfter);
    const v1: V1FailureContext | undefined = res.locals.v1;
    if (v1) return answerV1Failure(res, v1, status, message, fieldErrors);
    if (isV1Path(req.path)) return void res.status(status).json(v1ErrorOf(status, message, fieldErrors));
    res.status(status).json(errorBody(status, message, fieldErrors, appError?.payload, appError?.errorName));
  };
}
