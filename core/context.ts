import { EntityManager } from '@mikro-orm/postgresql';
import { Principal } from './auth/principal';
import { Logger } from './logger';

/**
 * What every resolver receives: the caller, a unit of work, a logger carrying the request id, and the
 * domain's services built for this request on that unit of work (the module's `services` factory).
 */
export interface RequestContext<Services = unknown> {
  principal?: Principal;
  em: EntityManager;
  logger: Logger;
  requestId: string;
  services: Services;
  /** The caller asks only whether the arguments pass (Caller.validateOnly): no resolver runs. */
  validateOnly?: boolean;
}
