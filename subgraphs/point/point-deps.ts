import { LedgerService } from './services/ledger.service';
import { KnownMembers } from '../../core/known-members';
import { MemberProjection } from '../../core/member-projection';
import { ReceiptExtractor } from './services/receipt-extractor';

/** What the point services need besides a unit of work. */
export interface PointDeps {
  ledger: LedgerService;
  /** Reads receipts for automatic verification (RECEIPT_EXTRACTOR_URL; none: manual review only). */
  receiptExtractor: ReceiptExtractor;
  /** Which members exist (point's projection, auth through the supergraph for the others): awards and purchases go to known members only. */
  members: KnownMembers;
  /** Point's projection of which members exist (`point.known_member`), kept from auth's events. */
  memberProjection: MemberProjection;
}
