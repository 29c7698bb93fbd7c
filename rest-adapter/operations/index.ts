import { AUTH_OPERATIONS } from './auth';
import { CLUSTER_OPERATIONS } from './cluster';
import { POINT_OPERATIONS } from './point';

/** Every operation the REST adapter runs, by name. */
export const OPERATIONS: Record<string, string> = {
  ...AUTH_OPERATIONS,
  ...POINT_OPERATIONS,
  ...CLUSTER_OPERATIONS,
};
