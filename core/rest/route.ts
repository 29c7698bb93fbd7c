import { IncomingHttpHeaders } from 'node:http';
import { Principal } from '../auth/principal';
import { ApiScope } from '../auth/scopes';
import { FieldError } from '../errors';
import type { V1Failure, V1ErrorCodes } from './failures';
import { JsonSchema } from './json-schema';

/**
 * The vocabulary a domain declares its REST surface with (`subgraphs/<domain>/surface/`): plain types and
 * builders, no express. The REST adapter (rest-adapter/) is the engine that serves what they declare.
 */

/**
 * The service-scoped envelopes of spec Part 1:
 * - `data`: `{statusCode, data: payload}`
 * - `nested`: `{statusCode, data: {message, data: payload}}`
 * - `message`: `{statusCode, data: {message}}`
 * - `dataWithMessage`: `{statusCode, data: payload, message}` (message beside data)
 * - `empty`: no body (204)
 */
export type Envelope = 'data' | 'nested' | 'message' | 'dataWithMessage' | 'empty' | V1Envelope;
/** The version-1 surface's envelopes (rest-adapter/v1/envelope.ts): `{data}` and `{data: [...], pagination}`. */
export type V1Envelope = 'v1' | 'v1List';

/** Where the version-1 surface lives. */
export const V1_BASE = '/api/v1';

/** A file field of a route. Every file must be a PNG, JPEG, WebP or GIF image, told from its content. */
export interface UploadField {
  name: string;
  maxCount?: number;
  required?: boolean;
}

/** Stored file URLs by field name: one URL, or a list when the field takes several files. */
export type Uploads = Record<string, string | string[]>;

/** The cookie options a route's `after` may set (a subset of express's). */
export interface CookieOptions {
  httpOnly?: boolean;
  sameSite?: 'strict' | 'lax' | 'none';
  secure?: boolean;
  path?: string;
  maxAge?: number;
}
/** What a route's `after` may do to the response besides its body. */
export interface ResponseCookies {
  cookie(name: string, value: string, options: CookieOptions): unknown;
}
/** What a route's `after` may read of the request. */
export interface RequestFacts {
  secure: boolean;
}

/** Spelling of the described body: field names in snake_case; fields given elsewhere left out, others renamed. */
export interface InputSpelling {
  /** GraphQL fields the caller does not send (the path gives them: `memberId`). */
  omit?: string[];
  /** GraphQL fields the caller sends under another name (`{memberId: 'customerId'}`), at any depth. */
  rename?: Record<string, string>;
}

/** What a v1 route's entry adds for its OpenAPI description. */
export interface V1RouteDoc {
  summary: string;
  /** Query parameters besides `page` and `limit` (which every v1 list takes). */
  query?: Record<string, JsonSchema>;
  /**
   * The JSON body written out: only for a body that the domain's service checks, which leaves no rules to
   * derive it from. Without it the body is described from the operation: its `$input` type (as `input`
   * spells it) or the variables of `bodyVariables`, with the rules of the subgraph classes behind them.
   */
  body?: JsonSchema;
  /** How a body forwarded as the operation's `$input` is spelled otherwise: fields the path gives, fields renamed. */
  input?: InputSpelling;
  /** A body whose fields are variables of the operation, by body field (`{reward_id: 'id', quantity: 'quantity'}`). */
  bodyVariables?: Record<string, string>;
  /** The schema of `data` (of each item of a list). */
  response?: JsonSchema;
  /** Error codes the route answers besides those its entry implies, by status: business rules (`{422: {CAMPAIGN_FULL: '...'}}`). */
  errors?: V1ErrorCodes;
}

/** What a route's variable builder sees of the request. */
export interface RouteInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  cookies: Record<string, string | undefined>;
  headers: IncomingHttpHeaders;
  uploads: Uploads;
  /** A v1 request's JSON body as sent (`body` has its keys in camelCase): for free-form objects such as `metadata`. */
  rawBody?: Record<string, unknown>;
}

/**
 * The variables of a route that spells none out: the query string, then the path parameters (a path
 * parameter wins over a query value of the same name), and the JSON body as `input`. Only the variables
 * the operation declares are forwarded (rest-adapter/variables.ts drops the rest), so `input` reaches
 * only operations that take `$input`, and the body's own top-level fields reach none: a route whose
 * operation takes body fields as variables of their own (`ids`, `code`, `apiKey`), or reads headers,
 * cookies or uploads, spells its mapping out. Body fields are never taken from the query string.
 */
export const defaultVariables = ({ query, params, body }: RouteInput): Record<string, unknown> => ({ ...query, ...params, input: body });

/** Who may call a route: the caller's verified token, before the body is read. */
export type Access = (principal: Principal) => boolean;
/** Callers whose role grants the permission (staff, service keys). */
export const withPermission =
  (permission: string): Access =>
  (principal) =>
    principal.can(permission);
/** Member tokens, acting on themselves. */
export const memberOnly: Access = (principal) => principal.kind === 'member';

/** One documented REST path: how it becomes a gateway operation, and how the answer is enveloped. */
export interface Route {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  /**
   * The GraphQL document the route runs on the gateway, written on the route (one named operation);
   * `npm run schema:check` validates it against the supergraph.
   */
  document: string;
  /** The operation's variables from the request; `defaultVariables` unless given. */
  variables?: (input: RouteInput) => Record<string, unknown>;
  /** A `message` route answers its message alone, so its operation selects no more than `id`. */
  envelope: Envelope;
  /** `data.message` of the nested and message envelopes; the top-level `message` of dataWithMessage; a function reads it from the operation's data. */
  message?: string | ((data: Record<string, any>) => string);
  /** Success status; 200 unless given. */
  status?: number;
  /** The payload from the operation's data; its first root field unless given. */
  payload?: (data: Record<string, any>, input: RouteInput) => unknown;
  /** Anything to do to the response besides the body (cookies). */
  after?: (res: ResponseCookies, payload: any, req: RequestFacts) => void;
  upload?: UploadField[];
  /**
   * The subgraph's access rule, repeated so that a refused caller is answered 403 before the body is read
   * and before any file is stored. Required with `upload` (unless public).
   */
  authorize?: Access;
  /** Needs no Bearer token (login, refresh, password reset, key exchange, consent reads); v1 routes too. */
  public?: boolean;
  /**
   * Its answer carries a credential (an access or refresh token, an API key, a signing secret): every
   * answer of the route, refusals included, says `Cache-Control: no-store`, so no browser or proxy keeps it.
   */
  credential?: boolean;
  /**
   * Checks a secret or issues a credential (login, refresh, password reset, key exchange): rate limited
   * by the client address whatever Bearer token comes with it, so that no credential raises the budget
   * of guessing.
   */
  limitByAddress?: boolean;

  // The version-1 surface (envelope `v1` or `v1List`, path under /api/v1).
  /** The scope a v1 route needs: `read` for GET, `write` for the rest, unless given; a list needs every one. */
  scope?: ApiScope | ApiScope[];
  /**
   * Whether customer (member) tokens may call a v1 route: `self` when the operation acts on the caller,
   * or the path parameter that must be the caller's own id. Without it a customer token is refused 403.
   */
  customer?: 'self' | { param: string };
  /**
   * The v1 `_NOT_FOUND` code of the route's 404s: one code (`CUSTOMER_NOT_FOUND`) for every 404, or a table by
   * the entity the platform names (`notFound(entity, id)`: `{Member: 'CUSTOMER_NOT_FOUND', Venue: 'VENUE_NOT_FOUND'}`),
   * whose first code also answers a path id that is no id at all.
   */
  notFound?: string | Readonly<Record<string, string>>;
  /** A v1 list whose pagination also carries `total_pages`, `has_next`, `has_prev` (customer lists). */
  pageCounts?: boolean;
  /**
   * The v1 error code of the route's own 401 (`INVALID_CODE` of a refused login code), answered as
   * `{error: {code, message}}`; without it a v1 401 is the OAuth `invalid_token` form.
   */
  unauthenticated?: string;
  /**
   * A POST that creates or moves value (contract section 1): its `Idempotency-Key` header (1 to 255
   * visible ASCII characters, else 400 on `Idempotency-Key`) reaches the operation as `$idempotencyKey`,
   * which the domain deduplicates per caller inside the mutation's own transaction: the same key and
   * body answer the first outcome again, another body is 409 `IDEMPOTENCY_KEY_REUSED` (a conflict on the
   * field `Idempotency-Key`). The operation must declare `$idempotencyKey`.
   */
  idempotent?: boolean;
  /**
   * The route's own v1 failures: what the platform's failure (status, message, field errors, `data`)
   * answers on this route, such as a 422 business rule (`INSUFFICIENT_POINTS`); undefined keeps the
   * usual mapping. It declares the codes it answers, which the OpenAPI description lists (`declaredFailure`).
   * Reusable ones: core/rest/failures.ts (`conflictOnField`, `notFoundByField`).
   */
  v1Failure?: V1Failure;
  /** Answers 302 to the URL this gives of the payload instead of a body (a tracked link). */
  redirect?: (payload: unknown) => string;
  /** What the OpenAPI description (`/api/v1/openapi.json`) says of a v1 route beyond what the rest of its entry tells. */
  doc?: V1RouteDoc;
}

/** A failure of a v1 route's operation, as the platform answered it. */
export interface V1PlatformFailure {
  status: number;
  message: string;
  fieldErrors?: FieldError[];
  data?: unknown;
  /** What was not found, as the domain named it (`Member`), on a 404. */
  entity?: string;
  /** A business refusal's stable reason code (`INSUFFICIENT_POINTS`). */
  reason?: string;
}

/** What a v1 route answers for a failure of its own: status and `{error: {code, message, details?}}`. */
export interface V1RouteFailure {
  status: number;
  code: string;
  message: string;
  fieldErrors?: FieldError[];
}

export const isV1Route = (route: Route): boolean => route.envelope === 'v1' || route.envelope === 'v1List';

/** The name of the operation a document defines (`mutation EarnPoints(...)` → `EarnPoints`). */
export function operationNameOf(document: string): string {
  const name = /^\s*(?:query|mutation|subscription)\s+(\w+)/.exec(document)?.[1];
  if (!name) throw new Error(`A route's document must open with one named operation: ${document.slice(0, 60)}`);
  return name;
}

/** The v1 code of a 404 on this route: by the entity not found where it declares a table. */
export function notFoundCode(notFound: Route['notFound'], entity?: string): string {
  if (typeof notFound === 'string') return notFound;
  const codes = Object.values(notFound ?? {});
  return (entity !== undefined && notFound?.[entity]) || codes[0] || 'NOT_FOUND';
}

/** Every `_NOT_FOUND` code a route may answer. */
export const notFoundCodes = (notFound: Route['notFound']): string[] => (typeof notFound === 'string' ? [notFound] : [...new Set(Object.values(notFound ?? {}))]);
