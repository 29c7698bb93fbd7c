import { GraphqlClient } from './graphql-client';
import { Tally } from './tally';

/** What every step of the seeder works with. */
export interface SeedContext {
  /** Calls made as the seeder's service key. */
  client: GraphqlClient;
  /** Calls made as the admin: what only a staff member may do (marking a reward code used at the till). */
  staff: GraphqlClient;
  tally: Tally;
  log: (line: string) => void;
}
