import { randomUUID } from 'node:crypto';
import { AccessTokens } from './auth/jwt';
import { Principal } from './auth/principal';
import { ServiceIdentity } from './auth/service-identity';
import { Config } from './config';
import { AppError, ErrorCode, FieldError } from './errors';
import { OperationExecutor } from './graphql-http';

/** How long a domain waits for the gateway before taking the call as unanswered. */
export const SUPERGRAPH_TIMEOUT_MS = 10_000;

const ERROR_CODES = new Set<ErrorCode>(['VALIDATION', 'BAD_REQUEST', 'UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'RATE_LIMITED', 'UNAVAILABLE', 'INTERNAL']);

/**
 * A domain calling the supergraph as its own service identity, through the gateway (in-process or over
 * HTTP with the internal credential: never rate-limited as a client). `run` resolves with the answer's
 * data, or rejects with an AppError carrying the first GraphQL error's code, message and field errors;
 * no answer within the timeout, or a failed transport, rejects with UNAVAILABLE: the call may or may
 * not have taken effect.
 */
export class SupergraphClient {
  constructor(
    private readonly gateway: OperationExecutor,
    private readonly identity: ServiceIdentity,
    private readonly timeoutMs = SUPERGRAPH_TIMEOUT_MS,
  ) {}

  async run<T>(query: string, variables: Record<string, unknown>, requestId: string = randomUUID()): Promise<T> {
    const authorization = await this.identity.authorization();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new AppError('UNAVAILABLE', 'The gateway did not answer in time')), this.timeoutMs);
    });
    try {
      const answer = await Promise.race([this.gateway({ query, variables }, { authorization, requestId }), timeout]);
      const [error] = answer.errors ?? [];
      if (error) {
        const code = String(error.extensions?.code ?? 'INTERNAL') as ErrorCode;
        throw new AppError(ERROR_CODES.has(code) ? code : 'INTERNAL', error.message, (error.extensions?.errors as FieldError[] | undefined) ?? []);
      }
      if (!answer.data) throw new AppError('INTERNAL', 'The gateway answered without data');
      return answer.data as T;
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('UNAVAILABLE', 'The gateway could not be reached', [], undefined, error);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A domain's client of the supergraph, calling as its own service principal (never a caller's token). */
export const supergraphAs = (principal: Principal, config: Pick<Config, 'jwtSecret'>, gateway: OperationExecutor): SupergraphClient =>
  new SupergraphClient(gateway, new ServiceIdentity(new AccessTokens(config.jwtSecret), principal));
