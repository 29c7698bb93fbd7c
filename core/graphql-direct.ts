import { DocumentNode, ExecutionResult, GraphQLError, GraphQLFormattedError, GraphQLSchema, OperationDefinitionNode, parse, ParseOptions, specifiedRules, validate, ValidationRule } from 'graphql';
import { createHash } from 'node:crypto';
import { formatGraphqlError, logUnexpectedErrors } from './graphql-errors';
import { Caller, GraphqlAnswer, GraphqlOperation, OperationExecutor } from './graphql-http';
import { Logger } from './logger';

/** An operation's document, parsed and validated once for every call with the same text. */
export interface CompiledOperation {
  source: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** sha256 of the text, as Apollo keys it. */
  queryHash: string;
  /** Only when the document holds several operations (one needs no name to be found). */
  operationName?: string;
}

export interface DirectExecution<TContext> {
  /** What documents are validated against. */
  schema: GraphQLSchema;
  validationRules?: readonly ValidationRule[];
  parseOptions?: ParseOptions;
  context: (caller: Caller) => Promise<TContext>;
  /** Executes a compiled operation for one caller. */
  run: (compiled: CompiledOperation, variables: Record<string, unknown> | undefined, contextValue: TContext) => Promise<ExecutionResult>;
  /** Refuses a request before it runs, for what validation cannot see (its variables: the gateway's caller mistakes). */
  refuse?: (compiled: CompiledOperation, variables: Record<string, unknown> | undefined) => GraphQLError | undefined;
  /** Rewrites error messages before they are formatted (the gateway hides field suggestions). */
  rewriteMessage?: (message: string) => string;
  /** Told of each answer with its operation's name (the gateway counts them: core/metrics.ts). */
  observe?: (operationName: string | undefined, answer: GraphqlAnswer) => void;
  logger: Logger;
}

/** Distinct documents kept: the in-process callers send a bounded set (REST operations, query plans' fetches). */
const MAX_DOCUMENTS = 1000;

/**
 * Runs operations for parts sharing the process without Apollo Server's request pipeline (hashing the
 * text, looking up its caches and calling each plugin's hooks on every request): each distinct text is
 * parsed and validated once, then executed directly. The answer is what the pipeline would give:
 * errors formatted by `formatGraphqlError` (with Apollo's default codes, request errors as
 * BAD_USER_INPUT), unexpected ones logged, the debug operation log line.
 */
export function directExecutor<TContext extends { requestId?: string }>(execution: DirectExecution<TContext>): OperationExecutor {
  const documents = new Map<string, CompiledOperation | readonly GraphQLError[]>();
  const compiledOf = (request: GraphqlOperation): CompiledOperation | readonly GraphQLError[] => {
    const key = request.operationName ? `${request.operationName}\n${request.query}` : request.query;
    let compiled = documents.get(key);
    if (!compiled) {
      compiled = compile(execution, request);
      if (documents.size >= MAX_DOCUMENTS) documents.clear();
      documents.set(key, compiled);
    }
    return compiled;
  };

  return async (request, caller) => {
    const started = execution.logger.isLevelEnabled('debug') ? performance.now() : 0;
    const compiled = compiledOf(request);
    let result: ExecutionResult;
    let requestId: string | undefined = caller.requestId;
    const refused = isErrors(compiled) ? undefined : execution.refuse?.(compiled, request.variables);
    if (isErrors(compiled)) {
      result = { errors: compiled };
    } else if (refused) {
      result = { errors: [refused] };
    } else {
      try {
        const contextValue = await execution.context(caller);
        requestId = contextValue.requestId ?? requestId;
        result = await execution.run(compiled, request.variables, contextValue);
      } catch (error) {
        result = { data: null, errors: [ensureGraphQLError(error)] };
      }
    }
    const answer = answerOf(execution, result);
    execution.observe?.(request.operationName ?? (isErrors(compiled) ? undefined : compiled.operation.name?.value), answer);
    if (result.errors?.length) logUnexpectedErrors(execution.logger, result.errors, requestId);
    if (started) {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      execution.logger.debug({ reqId: requestId, operation: request.operationName, ms, errors: result.errors?.length ?? 0 }, 'operation');
    }
    return answer;
  };
}

/** Any thrown value as a GraphQLError (as Apollo does). */
const ensureGraphQLError = (error: unknown): GraphQLError =>
  error instanceof GraphQLError ? error : new GraphQLError(error instanceof Error ? error.message : `Unexpected error value: ${String(error)}`, { originalError: error instanceof Error ? error : undefined });

const isErrors = (value: CompiledOperation | readonly GraphQLError[]): value is readonly GraphQLError[] => Array.isArray(value);

/** Parses, validates and finds the operation of a request: what is executed, or the request errors with their codes. */
export function compile(execution: Pick<DirectExecution<unknown>, 'schema' | 'validationRules' | 'parseOptions'>, request: GraphqlOperation): CompiledOperation | readonly GraphQLError[] {
  let document: DocumentNode;
  try {
    document = parse(request.query, execution.parseOptions);
  } catch (error) {
    return [withCode(ensureGraphQLError(error), 'GRAPHQL_PARSE_FAILED')];
  }
  const errors = validate(execution.schema, document, [...specifiedRules, ...(execution.validationRules ?? [])]);
  if (errors.length > 0) return errors.map((error) => withCode(error, 'GRAPHQL_VALIDATION_FAILED'));
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === 'OperationDefinition');
  const operation = operations.length === 1 ? operations[0] : operations.find((candidate) => candidate.name?.value === request.operationName);
  if (!operation) {
    const message = request.operationName ? `Unknown operation named "${request.operationName}".` : 'Must provide operation name if query contains multiple operations.';
    return [new GraphQLError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } })];
  }
  return {
    source: request.query,
    document,
    operation,
    queryHash: createHash('sha256').update(request.query).digest('hex'),
    operationName: operations.length > 1 ? request.operationName : undefined,
  };
}

const withCode = (error: GraphQLError, code: string) => new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, originalError: error.originalError, extensions: { ...error.extensions, code } });

/** The answer Apollo's pipeline gives for a result: errors of a request that did not execute are BAD_USER_INPUT. */
function answerOf(execution: Pick<DirectExecution<unknown>, 'rewriteMessage'>, result: ExecutionResult): GraphqlAnswer {
  if (!result.errors?.length) return { data: result.data };
  const executed = result.data !== undefined;
  const errors = result.errors.map((error) => formatted(execution, executed ? error : withDefaultCode(error, 'BAD_USER_INPUT')));
  return executed ? { data: result.data, errors } : { errors };
}

const withDefaultCode = (error: GraphQLError, code: string) => (error.extensions?.code ? error : withCode(error, code));

/** As Apollo's `normalizeAndFormatErrors`: a code on every error (INTERNAL_SERVER_ERROR by default), then formatGraphqlError. */
function formatted(execution: Pick<DirectExecution<unknown>, 'rewriteMessage'>, error: GraphQLError): GraphQLFormattedError {
  const json = error.toJSON();
  const message = execution.rewriteMessage ? execution.rewriteMessage(json.message) : json.message;
  const enriched = { ...json, message, extensions: { ...error.extensions, code: error.extensions?.code ?? 'INTERNAL_SERVER_ERROR' } };
  try {
    return formatGraphqlError(enriched, error);
  } catch {
    return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
}
