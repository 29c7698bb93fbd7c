import { LedgerService } from './services/ledger.service';
import { ReceiptExtractor } from './services/receipt-extractor';

/** What the point services need besides a unit of work. */
export interface PointDeps {
  ledger: LedgerService;
  /** Reads receipts for automatic verification (RECEIPT_EXTRACTOR_URL; none: manual review only). */
  receiptExtractor: ReceiptExtractor;
}
