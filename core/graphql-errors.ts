import { unwrapResolverError } from '@apollo/server/errors';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { GraphQLFormattedError } from 'graphql';
import { AppError, STATUS_BY_CODE } from './errors';
import { Logger } from './logger';

const CLIENT_CODES = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'PERSISTED_QUERY_NOT_FOUND']);

/**
 * Apollo `formatError`: domain errors and GraphQL request errors go out as they are; anything else
 * is logged and masked, so that no stack trace or internal message leaves the server.
 */
export function formatGraphqlError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (original instanceof AppError) {
      return { message: original.message, path: formatted.path, extensions: original.extensions };
    }
    if (original instanceof UniqueConstraintViolationException) {
      return { message: 'Already exists', path: formatted.path, extensions: { code: 'CONFLICT' } };
    }
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && (CLIENT_CODES.has(code) || code in STATUS_BY_CODE)) {
      const { stacktrace: _stacktrace, ...extensions } = formatted.extensions ?? {};
      return { ...formatted, extensions };
    }
    logger.error({ err: original }, 'unexpected error');
    return { message: 'Internal server error', path: formatted.path, extensions: { code: 'INTERNAL' } };
  };
}
