import { LedgerService } from './services/ledger.service';
import { KnownMembers } from '../../core/known-members';
import { ReceiptExtractor } from './services/receipt-extractor';

/** What the point services need besides a unit of work. */
export interface PointDeps {
  ledger: LedgerService;
  /** Reads receipts for automatic verification (RECEIPT_EXTRACTOR_URL; none: manual review only). */
  receiptExtractor: ReceiptExtractor;
  /** Which members exist (auth, through the supergraph): awards and purchases go to known members only. */
  members: KnownMembers;
}
