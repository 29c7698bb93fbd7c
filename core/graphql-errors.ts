import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { GraphQLError, GraphQLFormattedError } from 'graphql';
import { AppError, STATUS_BY_CODE } from './errors';
import { Logger } from './logger';
import { isUnavailable, unavailable } from './unavailable';

const CLIENT_CODES = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'PERSISTED_QUERY_NOT_FOUND', 'OPERATION_RESOLUTION_FAILURE']);

/** Whether an error may reach the client as it is: a domain error, a duplicate (409) or a request error. */
function isExpected(error: unknown, code: unknown): boolean {
  const original = unwrapResolverError(error);
  if (original instanceof AppError || original instanceof UniqueConstraintViolationException) return true;
  return typeof code === 'string' && (CLIENT_CODES.has(code) || code in STATUS_BY_CODE);
}

/**
 * Apollo `formatError`: domain errors and GraphQL request errors go out as they are; anything else is
 * masked, so that no stack trace or internal message leaves the server (errorLogPlugin logs it).
 */
export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const unwrapped = unwrapResolverError(error);
  const original = !(unwrapped instanceof AppError) && isUnavailable(unwrapped) ? unavailable(unwrapped) : unwrapped;
  if (original instanceof AppError) return { message: original.message, path: formatted.path, extensions: original.extensions };
  if (original instanceof UniqueConstraintViolationException) return { message: 'Already exists', path: formatted.path, extensions: { code: 'CONFLICT' } };
  if (isExpected(error, formatted.extensions?.code)) {
    const { stacktrace: _stacktrace, ...extensions } = formatted.extensions ?? {};
    return { ...formatted, extensions };
  }
  return { message: 'Internal server error', path: formatted.path, extensions: { code: 'INTERNAL' } };
}

/** Logs every error that formatGraphqlError masks, with the request id that carried it. */
export function logUnexpectedErrors(logger: Logger, errors: readonly GraphQLError[], requestId: string | undefined): void {
  for (const error of errors) {
    if (isUnavailable(unwrapResolverError(error))) logger.warn({ err: unwrapResolverError(error), reqId: requestId, path: error.path }, 'database unavailable');
    else if (!isExpected(error, error.extensions?.code)) {
      logger.error({ err: unwrapResolverError(error), reqId: requestId, path: error.path }, 'unexpected error');
    }
  }
}

/** Apollo's pipeline logs through `logUnexpectedErrors`. */
export function errorLogPlugin(logger: Logger): ApolloServerPlugin<{ requestId: string }> {
  return {
    async requestDidStart({ contextValue }) {
      return {
        async didEncounterErrors({ errors }) {
          logUnexpectedErrors(logger, errors as readonly GraphQLError[], contextValue.requestId);
        },
      };
    },
  };
}
