import { Response } from 'express';
import { FieldError } from '../../core/errors';
import { toV1 } from '../../core/rest/case';
import { notFoundCode, V1_BASE, type Route, type V1PlatformFailure, type V1RouteFailure } from '../../core/rest/route';
import { answerInsufficientScope, answerInvalidToken, v1ErrorBody, v1ErrorOf } from './errors';

export const isV1Path = (path: string): boolean => path === V1_BASE || path.startsWith(`${V1_BASE}/`);

/** A page as the subgraphs answer it. */
interface PlatformPage {
  meta: { page: number; limit: number; total: number; totalPages?: number };
  data: unknown[];
}

/** `{data}` of a v1 answer, snake_case and without milliseconds. */
export const v1Body = (payload: unknown): unknown => ({ data: toV1(payload) });

/** `{data: [...], pagination: {page, limit, total}}`, customer lists with `total_pages`, `has_next`, `has_prev`. */
export function v1ListBody(page: PlatformPage, withPageCounts: boolean): unknown {
  const { page: current, limit, total } = page.meta;
  const totalPages = Math.ceil(total / limit);
  const counts = withPageCounts ? { total_pages: totalPages, has_next: current < totalPages, has_prev: current > 1 && total > 0 } : {};
  return { data: toV1(page.data), pagination: { page: current, limit, total, ...counts } };
}

/** What a v1 route needs to answer a failure the way the contract says. */
export interface V1FailureContext {
  /** The scopes the route needs, space-separated (named in a 403, as RFC 6750 lists them). */
  scope: string;
  /** The route's `_NOT_FOUND` code, or its table by entity. */
  notFound?: Route['notFound'];
  /** The route's path parameters: a request refused only on them names no existing thing (404). */
  params: string[];
  /** The route's own 401 code (`INVALID_CODE`), instead of the OAuth form. */
  unauthenticated?: string;
  /** The route's own failures (Route.v1Failure). */
  own?: (failure: V1PlatformFailure) => V1RouteFailure | undefined;
}

/**
 * Answers a failed v1 request: 401/403 in the OAuth form (a 401 with the route's own code where it
 * declares one), the rest as `{error: {code, message, details?}}`.
 */
export function answerV1Failure(
  res: Response,
  context: V1FailureContext,
  status: number,
  message: string,
  fieldErrors?: FieldError[],
  data?: unknown,
  identity: Pick<V1PlatformFailure, 'entity' | 'reason'> = {},
): void {
  const own = context.own?.({ status, message, fieldErrors, data, ...identity });
  if (own) return void res.status(own.status).json(v1ErrorBody(own.code, own.message, own.fieldErrors));
  if (status === 401 && context.unauthenticated) return void res.status(401).json(v1ErrorBody(context.unauthenticated, message));
  if (status === 401) return answerInvalidToken(res);
  if (status === 403) return answerInsufficientScope(res, context.scope, message);
  const onlyPathParams = status === 400 && !!fieldErrors?.length && fieldErrors.every((error) => context.params.includes(error.field));
  const answered = onlyPathParams ? 404 : status;
  res.status(answered).json(v1ErrorOf(answered, onlyPathParams ? 'Not found' : message, fieldErrors, notFoundCode(context.notFound, identity.entity)));
}
