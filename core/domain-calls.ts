import { Principal } from './auth/principal';
import { CallType } from './call-type';
import { AppError } from './errors';
import { SupergraphClient } from './supergraph-client';
import { isUnavailable } from './unavailable';

/** Who makes a call: the calling domain's own service principal (never its caller's token), and the request it serves. */
export interface CallContext {
  caller: Principal;
  requestId?: string;
}

/** The owning domain's code answering a call in-process: the same rules and errors its GraphQL operation has. */
export type CallHandler<Input, Output> = (input: Input, context: CallContext) => Promise<Output>;

/** A handler bound to its call, as a module lists them (`DomainModule.calls`). */
export interface HandledCall {
  type: string;
  handler: CallHandler<any, any>;
}

export const handle = <Input, Output>(type: CallType<Input, Output>, handler: CallHandler<Input, Output>): HandledCall => ({ type, handler });

/**
 * The calls answered in this process: each domain started here registers its handlers (`DomainModule.calls`).
 * The platform gives its domains one registry when they call each other in-process
 * (COLOCATED_TRANSPORT=in-process); a domain running alone (`npm run start:part`) or over HTTP holds only
 * its own, so the others' calls take their remote path.
 */
export class DomainCalls {
  private readonly handlers = new Map<string, CallHandler<any, any>>();

  /** Registers a domain's handlers; the function returned removes them (the domain stops). */
  register(calls: readonly HandledCall[]): () => void {
    for (const { type } of calls) if (this.handlers.has(type)) throw new Error(`The call ${type} is answered twice in this process`);
    for (const { type, handler } of calls) this.handlers.set(type, handler);
    return () => {
      for (const { type } of calls) this.handlers.delete(type);
    };
  }

  /** The in-process handler of a call, if its owner runs in this process. */
  handler<Input, Output>(type: CallType<Input, Output>): CallHandler<Input, Output> | undefined {
    return this.handlers.get(type);
  }

  /** Whether every one of these calls is answered in this process. */
  answersAll(...types: string[]): boolean {
    return types.every((type) => this.handlers.has(type));
  }
}

/**
 * A call as its consumer makes it: the owner's call type, and the supergraph operation that does the
 * same when the owner runs elsewhere (the document is declared on the consumer's module,
 * `supergraphOperations`, so `npm run schema:check` validates it).
 */
export interface RemoteCall<Input, Output> {
  type: CallType<Input, Output>;
  document: string;
  variables: (input: Input) => Record<string, unknown>;
  answer: (data: any, input: Input) => Output;
}

export const remoteCall = <Input, Output>(declared: RemoteCall<Input, Output>): RemoteCall<Input, Output> => declared;

/**
 * A domain's calls into other domains, as its own service principal: the owner's handler when it runs in
 * this process (no HTTP, no GraphQL pipeline), else the supergraph operation through the gateway. Either
 * way a refusal arrives as the owner's AppError (code, message, field errors); a failure that says
 * nothing of the call's effect (no answer, the database or the gateway unreachable, a bug) as
 * UNAVAILABLE or INTERNAL: the call may or may not have taken effect, so a write is made idempotent by
 * its input (a key) and tried again.
 */
export class CallClient {
  constructor(
    private readonly calls: DomainCalls,
    private readonly supergraph: SupergraphClient,
    private readonly caller: Principal,
  ) {}

  /** The call in-process when its owner runs here, else its supergraph operation. */
  async run<Input, Output>(declared: RemoteCall<Input, Output>, input: Input, requestId?: string): Promise<Output> {
    if (!this.calls.handler(declared.type)) return declared.answer(await this.supergraph.run(declared.document, declared.variables(input), requestId), input);
    return this.call(declared.type, input, requestId);
  }

  /** A call answered in this process (`local` says whether it is): for a consumer composing several owners' answers, with a federated operation for when they run elsewhere. */
  async call<Input, Output>(type: CallType<Input, Output>, input: Input, requestId?: string): Promise<Output> {
    const handler = this.calls.handler(type);
    if (!handler) throw new AppError('INTERNAL', `The call ${type} is not answered in this process`);
    try {
      return await handler(input, { caller: this.caller, requestId });
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError(isUnavailable(error) ? 'UNAVAILABLE' : 'INTERNAL', `The call ${type} failed`, [], undefined, error);
    }
  }

  /** Whether every one of these calls is answered in this process (a consumer may then compose them instead of one federated operation). */
  local(...types: string[]): boolean {
    return this.calls.answersAll(...types);
  }

  /** The supergraph as this client's principal: the federated operation of a read composed of several owners' answers, when they run elsewhere. */
  get remote(): SupergraphClient {
    return this.supergraph;
  }
}
