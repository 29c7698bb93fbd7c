import { AUTH_OPERATIONS } from './auth';

/** Every operation the REST adapter runs, by name. */
export const OPERATIONS: Record<string, string> = {
  ...AUTH_OPERATIONS,
};
