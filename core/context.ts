import { EntityManager } from '@mikro-orm/postgresql';
import { Principal } from './auth/principal';
import { Logger } from './logger';

/** What every resolver receives: the caller, a unit of work, and a logger carrying the request id. */
export interface RequestContext {
  principal?: Principal;
  em: EntityManager;
  logger: Logger;
  requestId: string;
}
