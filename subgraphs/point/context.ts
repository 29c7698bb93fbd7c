import { EntityManager } from '@mikro-orm/postgresql';
import { BatchLoader } from '../../core/batch-loader';
import { INCLUDING_DELETED } from '../../core/db/soft-deletable';
import { RequestContext } from '../../core/context';
import { PointShopRule } from './entities/point-shop-rule';
import { PointDeps } from './point-deps';
import { AwardService } from './services/award.service';
import { InteractionService } from './services/interaction.service';
import { PointService } from './services/point.service';
import { PurchaseService } from './services/purchase.service';
import { EarningRuleService } from './services/earning-rule.service';
import { CustomEventService } from './services/custom-event.service';
import { CustomEventTypeService } from './services/custom-event-type.service';
import { PendingPointsService } from './services/pending-points.service';
import { ReferralService } from './services/referral.service';
import { ReceiptService } from './services/receipt.service';
import { RequestTicketService } from './services/request-ticket.service';
import { ShopRuleService } from './services/shop-rule.service';

/** The point services of one request, on its unit of work; the loaders batch a page's lookups into one query. */
export function pointServices(em: EntityManager, deps: PointDeps) {
  const points = new PointService(em, deps.ledger);
  return {
    points,
    awards: new AwardService(em, deps.ledger, deps.members),
    tickets: new RequestTicketService(em, deps.ledger),
    shopRules: new ShopRuleService(em),
    receipts: new ReceiptService(em, deps.ledger, deps.receiptExtractor, deps.earning),
    purchases: new PurchaseService(em, deps.ledger, deps.members, deps.earning, deps.referrals),
    earningRules: new EarningRuleService(em, deps.earning, deps.members),
    eventTypes: new CustomEventTypeService(em),
    customEvents: new CustomEventService(em, deps.earning, deps.members),
    pendingPoints: new PendingPointsService(em, deps.ledger),
    referrals: new ReferralService(em, deps.members),
    interactions: new InteractionService(em),
    /** Member.pointBalance: a page of members costs one balance query. */
    balances: new BatchLoader((memberIds: string[]) => points.balances(memberIds), undefined),
    /** ReceiptVerification.pointRule (deleted rules too): a page of verifications costs one query for their rules. */
    shopRulesById: new BatchLoader(
      async (ids: string[]) => new Map((await em.find(PointShopRule, { id: { $in: ids } }, INCLUDING_DELETED)).map((rule) => [rule.id, rule])),
      null,
    ),
  };
}

export type PointContext = RequestContext<ReturnType<typeof pointServices>>;
