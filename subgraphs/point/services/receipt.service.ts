import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { EventType } from '../../../core/events/event-type';
import { EntityManager } from '@mikro-orm/postgresql';
import { Principal } from '../../../core/auth/principal';
import { badRequest, conflict, notFound, validationError } from '../../../core/errors';
import { recordEvent } from '../../../core/events/outbox-event';
import { offsetOf, Page, pageOf } from '../../../core/pagination';
import { POINT, ReceiptVerificationChanged } from '../contract';
import { PointSource } from '../entities/point-transaction';
import { ReceiptVerification, ReceiptVerificationStatus } from '../entities/receipt-verification';
import { AutomaticReceiptVerificationInput, ManualReceiptReviewInput, ReceiptListArgs, ReceiptVerificationStats } from '../types/receipt.types';
import { MAX_POINTS } from '../types/point.types';
import { LedgerService } from './ledger.service';
import { RuleEarning } from './earning-rules/rule-earning';
import { ReceiptExtractor } from './receipt-extractor';
import { ShopRuleService } from './shop-rule.service';

const VERIFICATION = 'Receipt verification';

/** What a decision stores; an approval also credits. `money` is a decimal string. */
type Decision =
  | {
      approved: true;
      money?: string;
      pointRuleId?: string | null;
      shopId?: string | null;
      categoryId?: string | null;
      receiptId?: string;
      reviewReason?: string;
      reviewById: string;
    }
  | { approved: false; receiptId?: string; reviewReason?: string; reviewById: string };

/**
 * Receipt verifications: opened PENDING with the receipt image, then approved or rejected, by the
 * extractor (automatic) or by a reviewer (manual). APPROVED is final: the approval credits points
 * once, in the transaction that changes the status, with the verification row locked.
 */
export class ReceiptService {
  constructor(
    private readonly em: EntityManager,
    private readonly ledger: LedgerService,
    private readonly extractor: ReceiptExtractor,
    private readonly earning: RuleEarning,
  ) {}

  async submit(memberId: string, imageUrl: string): Promise<ReceiptVerification> {
    const verification = this.em.create(ReceiptVerification, { memberId, receiptImageUrl: imageUrl });
    announceReceipt(this.em, POINT.events.receiptSubmitted, verification);
    await this.em.flush();
    return verification;
  }

  /** Newest first; `memberId` narrows to one member. */
  async list(args: ReceiptListArgs): Promise<Page<ReceiptVerification>> {
    const where: Record<string, unknown> = {};
    if (args.memberId) where.memberId = args.memberId;
    if (args.status) where.status = args.status;
    const [items, total] = await this.em.findAndCount(ReceiptVerification, where, {
      orderBy: { createdAt: 'desc', id: 'desc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
    return pageOf(items, total, args);
  }

  async stats(): Promise<ReceiptVerificationStats> {
    const [row] = await this.em.execute(
      `select count(*)::int as total,
              count(*) filter (where status = 'PENDING')::int as pending,
              count(*) filter (where status = 'PROCESSING')::int as processing,
              count(*) filter (where status = 'APPROVED')::int as approved,
              count(*) filter (where status = 'REJECTED')::int as rejected
         from point.receipt_verification`,
    );
    return row as ReceiptVerificationStats;
  }

  /** A member reads only its own verifications: another member's is 404, as if it did not exist. */
  async get(id: string, reader?: Principal): Promise<ReceiptVerification> {
    const verification = await this.em.findOne(ReceiptVerification, { id });
    if (!verification || (reader?.kind === 'member' && verification.memberId !== reader.id)) throw notFound(VERIFICATION, id);
    return verification;
  }

  /**
   * POST /receipt/verify/:id. `approved` false rejects. `approved` true asks the extractor: when it
   * cannot tell, 400 and nothing changes (manual review is needed); else the receipt is credited
   * with the rule of the shop it names, or the default rule.
   */
  async verifyAutomatically(id: string, input: AutomaticReceiptVerificationInput, caller: Principal): Promise<ReceiptVerification> {
    const verification = await this.get(id);
    assertNotApproved(verification);
    if (!input.approved) return this.decide(id, { approved: false, receiptId: input.receiptId, reviewById: caller.id });
    const extracted = await this.extractor.extract(input.receiptId, verification.receiptImageUrl);
    if (!extracted) throw badRequest('The receipt could not be read automatically: manual review is needed', 'receiptId');
    return this.decide(id, {
      approved: true,
      money: extracted.money,
      shopId: extracted.shopId ?? null,
      categoryId: extracted.categoryId ?? null,
      receiptId: input.receiptId,
      reviewById: caller.id,
    });
  }

  /**
   * POST and PUT /receipt/verify/:id/manual. Approval prices `money` (or the amount already known)
   * with `pointRuleId`, else the shop's rule, else the default rule; given shopId and categoryId
   * replace the known ones. Rejection stores the reason. The reviewer is the caller, never a body field.
   */
  review(id: string, input: ManualReceiptReviewInput, reviewer: Principal): Promise<ReceiptVerification> {
    if (!input.approved) return this.decide(id, { approved: false, reviewReason: input.reviewReason, reviewById: reviewer.id });
    return this.decide(id, {
      approved: true,
      // Amounts arrive validated to at most 2 decimals, so fixing them to 2 decimals is exact.
      money: input.money?.toFixed(2),
      pointRuleId: input.pointRuleId,
      shopId: input.shopId ?? null,
      categoryId: input.categoryId ?? null,
      reviewReason: input.reviewReason,
      reviewById: reviewer.id,
    });
  }

  /** Applies a decision with the verification row locked; an approval writes its ledger entry too. */
  private async decide(id: string, decision: Decision): Promise<ReceiptVerification> {
    try {
      return await this.em.transactional(async (em) => {
        const verification = await em.findOne(ReceiptVerification, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
        if (!verification) throw notFound(VERIFICATION, id);
        assertNotApproved(verification);
        if (decision.approved) await this.approve(em, verification, decision);
        else {
          verification.status = ReceiptVerificationStatus.REJECTED;
          verification.receiptId = decision.receiptId ?? verification.receiptId;
          verification.reviewReason = decision.reviewReason ?? verification.reviewReason;
          verification.reviewById = decision.reviewById;
          announceReceipt(em, POINT.events.receiptRejected, verification);
        }
        await em.flush();
        return verification;
      });
    } catch (error) {
      // Two approvals naming one receipt can race past the check: the partial unique index refuses the second.
      if (error instanceof UniqueConstraintViolationException && error.message.includes(APPROVED_RECEIPT_INDEX)) throw receiptUsed(decision.receiptId ?? '');
      throw error;
    }
  }

  private async approve(em: EntityManager, verification: ReceiptVerification, decision: Extract<Decision, { approved: true }>): Promise<void> {
    const money = decision.money ?? verification.money;
    if (!money) throw validationError([{ field: 'money', message: 'money is required to approve a receipt whose amount is not known' }]);
    const shopId = decision.shopId ?? verification.shopId;
    const categoryId = decision.categoryId ?? verification.categoryId;
    if (decision.receiptId) await assertReceiptUnused(em, decision.receiptId, verification.id);
    const rule = await new ShopRuleService(em).ruleFor(em, decision.pointRuleId, shopId);
    const points = await pointsFor(em, money, rule.conversionRate);
    // A receipt is a purchase to the earning rules: when it happened is when it was submitted.
    const earning = await this.earning.prepare(em, {
      type: 'receipt',
      id: verification.id,
      memberId: verification.memberId,
      facts: { trigger: 'purchase', occurredAt: verification.createdAt, amount: money, storeId: shopId, category: categoryId, basePoints: points },
      sourceBy: PointSource.Purchase,
    });
    // The ledger writes its entry at once: the verification changes only after, so it is never APPROVED without its entry.
    const transaction = await this.ledger.earn(em, {
      memberId: verification.memberId,
      amount: points,
      purchaseAmount: money,
      shopId,
      categoryId,
      note: `Receipt verification ${verification.id}`,
      sourceBy: PointSource.Purchase,
      receiptVerificationId: verification.id,
    });
    await this.earning.apply(em, { ...earning, source: { ...earning.source, baseEntryId: transaction.id } });
    Object.assign(verification, {
      status: ReceiptVerificationStatus.APPROVED,
      money,
      pointRuleId: rule.id,
      shopId,
      categoryId,
      receiptId: decision.receiptId ?? verification.receiptId,
      reviewReason: decision.reviewReason ?? verification.reviewReason,
      reviewById: decision.reviewById,
      pointTransactionId: transaction.id,
    });
  }
}

/** `receipt.submitted` or `receipt.rejected`, in the transaction of the change. */
function announceReceipt(em: EntityManager, type: EventType<ReceiptVerificationChanged>, verification: ReceiptVerification): void {
  const changed: ReceiptVerificationChanged = {
    verificationId: verification.id,
    memberId: verification.memberId,
    status: verification.status as ReceiptVerificationChanged['status'],
    receiptImageUrl: verification.receiptImageUrl,
    receiptId: verification.receiptId,
    reviewReason: verification.reviewReason,
    changedAt: new Date().toISOString(),
  };
  recordEvent(em, type, changed, { aggregateId: verification.memberId });
}

const APPROVED_RECEIPT_INDEX = 'receipt_verification_approved_receipt_uidx';

function assertNotApproved(verification: ReceiptVerification): void {
  if (verification.status === ReceiptVerificationStatus.APPROVED) {
    throw conflict(`${VERIFICATION} already approved: its points are credited and it cannot change`, 'status');
  }
}

async function assertReceiptUnused(em: EntityManager, receiptId: string, id: string): Promise<void> {
  const used = await em.count(ReceiptVerification, { receiptId, status: ReceiptVerificationStatus.APPROVED, id: { $ne: id } });
  if (used > 0) throw receiptUsed(receiptId);
}

const receiptUsed = (receiptId: string) => conflict(`Receipt ${receiptId} was already credited by another verification`, 'receiptId');

/** money × rate, rounded down to 2 decimals, in exact numeric arithmetic (never JS floats). */
async function pointsFor(em: EntityManager, money: string, conversionRate: string): Promise<string> {
  const [row] = await em.execute(
    `select points::text as points, points <= ?::numeric as fits from (select trunc(?::numeric * ?::numeric, 2) as points) product`,
    [MAX_POINTS, money, conversionRate],
  );
  if (!row.fits) throw badRequest(`The receipt would earn more than ${MAX_POINTS} points`, 'money');
  return row.points;
}
