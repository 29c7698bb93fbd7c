import { WeakLoaders } from './services/balance-loader';
import { LedgerService } from './services/ledger.service';

/** What the point resolvers need besides the request context. */
export interface PointDeps {
  ledger: LedgerService;
  balanceLoaders: WeakLoaders;
}
