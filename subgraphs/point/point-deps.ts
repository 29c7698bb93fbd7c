import { LedgerService } from './services/ledger.service';
import { KnownMembers } from '../../core/known-members';
import { MemberProjection } from '../../core/member-projection';
import { MemberFacts } from './services/member-facts';
import { ReceiptExtractor } from './services/receipt-extractor';
import { RuleEarning } from './services/earning-rules/rule-earning';
import { ReferralProgram } from './services/referral-program';

/** What the point services need besides a unit of work. */
export interface PointDeps {
  ledger: LedgerService;
  /** Reads receipts for automatic verification (RECEIPT_EXTRACTOR_URL; none: manual review only). */
  receiptExtractor: ReceiptExtractor;
  /** Which members exist (point's projection, auth through the supergraph for the others): awards and purchases go to known members only. */
  members: KnownMembers;
  /** Point's projection of which members exist (`point.known_member`), kept from auth's events. */
  memberProjection: MemberProjection;
  /** What the earning rules know of a member: tier and birth month (`point.member_profile`, from events), segments (the cluster, asked). */
  memberFacts: MemberFacts;
  /** Earning rules on the write path and in dry runs, with this process's rule book (checked against the database's in each transaction). */
  earning: RuleEarning;
  /** Links sign-ups with a referral code (a consumer of customer.created) and completes them by a qualifying purchase. */
  referrals: ReferralProgram;
}
