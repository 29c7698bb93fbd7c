import { WeakLoaders } from './services/balance-loader';
import { LedgerService } from './services/ledger.service';
import { ReceiptExtractor } from './services/receipt-extractor';

/** What the point resolvers need besides the request context. */
export interface PointDeps {
  ledger: LedgerService;
  balanceLoaders: WeakLoaders;
  /** Reads receipts for automatic verification (RECEIPT_EXTRACTOR_URL; none: manual review only). */
  receiptExtractor: ReceiptExtractor;
}
