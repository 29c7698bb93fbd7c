import { EntityManager } from '@mikro-orm/postgresql';
import { defineModule } from '../../core/module';
import { pointServices } from './context';
import { POINT } from './contract';
import { PointRequestTicket } from './entities/point-request-ticket';
import { PointShopRule } from './entities/point-shop-rule';
import { EarningRule } from './entities/earning-rule';
import { EarningRuleVersion } from './entities/earning-rule-version';
import { RuleApplication } from './entities/rule-application';
import { EarningRuleResolver } from './resolvers/earning-rule.resolver';
import { CustomEventResolver } from './resolvers/custom-event.resolver';
import { PendingPointsResolver } from './resolvers/pending-points.resolver';
import { PendingPoints } from './entities/pending-points';
import { Referral } from './entities/referral';
import { ReferralSettings } from './entities/referral-settings';
import { ReferralResolver } from './resolvers/referral.resolver';
import { ReferralProgram } from './services/referral-program';
import { createHmac } from 'node:crypto';
import { ACTIVATE_PENDING_QUEUE, activateDuePending } from './services/pending-points.service';
import { CustomEvent } from './entities/custom-event';
import { CustomEventType } from './entities/custom-event-type';
import { RuleBook } from './services/earning-rules/rule-book';
import { RuleEarning } from './services/earning-rules/rule-earning';
import { ruleTriggersConsumer } from './services/rule-triggers';
import { PointTransaction } from './entities/point-transaction';
import { Purchase } from './entities/purchase';
import { PurchaseRefund } from './entities/purchase-refund';
import { ReceiptVerification } from './entities/receipt-verification';
import { pointMigrations } from './migrations';
import { InteractionResolver } from './resolvers/interaction.resolver';
import { MemberPointsResolver } from './resolvers/member-points.resolver';
import { AwardResolver } from './resolvers/award.resolver';
import { PointResolver } from './resolvers/point.resolver';
import { PurchaseResolver } from './resolvers/purchase.resolver';
import { ReceiptResolver } from './resolvers/receipt.resolver';
import { RequestTicketResolver } from './resolvers/request-ticket.resolver';
import { ShopRuleResolver } from './resolvers/shop-rule.resolver';
import { EXPIRE_LOTS_QUEUE, expireAllDue } from './services/expiry-job';
import { EXPIRY_NOTICE_QUEUE, noticeExpiringPoints } from './services/expiry-notice';
import { LedgerService } from './services/ledger.service';
import { pointCalls } from './services/point-calls';
import { applyMemberActivity, MEMBER_ACTIVITY_EVENTS, MEMBER_ACTIVITY_QUEUE } from './services/member-activity';
import { MemberFacts } from './services/member-facts';
import { applyMemberProfile, MEMBER_PROFILE_EVENTS, MEMBER_PROFILE_QUEUE } from './services/member-profile';
import { POINT_SUPERGRAPH_OPERATIONS, pointMembers } from './services/point-members';
import { createReceiptExtractor } from './services/receipt-extractor';
import { parsePointSettings } from './settings';
import { MemberReference } from './types/member.type';
import { POINT_SURFACE } from './surface';

/**
 * Point: the exact ledger with earned lots and their expiry (a job every minute), point request
 * tickets, shop rules and receipts, purchases, members' interactions (bookings, visits and campaign
 * joins kept from those domains' events), earning rules (on purchases, custom events, check-ins and
 * customer creations, referral completions) with their custom event types, the referral program (codes,
 * sign-ups linked or refused, completion by a qualifying purchase), and the member facts the rules test (tier and
 * birth month kept from the cluster's and auth's events, segments asked of the cluster). Contributes
 * `Member.pointBalance`.
 */
export const pointModule = defineModule({
  contract: POINT,
  defaultPort: 4002,
  entities: [PointTransaction, PointRequestTicket, PointShopRule, ReceiptVerification, Purchase, PurchaseRefund, EarningRule, EarningRuleVersion, RuleApplication, CustomEventType, CustomEvent, PendingPoints, Referral, ReferralSettings],
  migrations: pointMigrations,
  resolvers: [PointResolver, AwardResolver, MemberPointsResolver, RequestTicketResolver, ShopRuleResolver, ReceiptResolver, PurchaseResolver, InteractionResolver, EarningRuleResolver, CustomEventResolver, PendingPointsResolver, ReferralResolver],
  orphanedTypes: [MemberReference],
  referenceResolvers: { Member: { __resolveReference: (reference: { id: string }) => ({ id: reference.id }) } },
  settings: parsePointSettings,
  environment: ['POINT_EXPIRY', 'RECEIPT_EXTRACTOR_URL', 'POINT_EXPIRY_NOTICE_DAYS', 'POINT_PENDING_DAYS'],
  deps: (start) => {
    const ledger = new LedgerService(start.settings.expiry);
    const { projection, members, supergraph } = pointMembers(start);
    const memberFacts = new MemberFacts(supergraph);
    return {
      ledger,
      receiptExtractor: createReceiptExtractor(start.settings.receiptExtractorUrl),
      members,
      memberProjection: projection,
      memberFacts,
      earning: new RuleEarning(new RuleBook(), memberFacts, ledger, start.settings.pendingDays),
      referrals: new ReferralProgram(supergraph, createHmac('sha256', start.config.jwtSecret).update('loyalty-platform referral fingerprint').digest('base64url')),
    };
  },
  calls: ({ orm, deps }) => pointCalls(orm, deps.ledger),
  supergraphOperations: POINT_SUPERGRAPH_OPERATIONS,
  surface: POINT_SURFACE,
  consumers: ({ deps }) => [
    ruleTriggersConsumer(deps.earning),
    deps.referrals.consumer,
    { queue: MEMBER_ACTIVITY_QUEUE, events: MEMBER_ACTIVITY_EVENTS, apply: applyMemberActivity },
    { queue: MEMBER_PROFILE_QUEUE, events: MEMBER_PROFILE_EVENTS, apply: applyMemberProfile },
    deps.memberProjection.consumer,
  ],
  services: pointServices,
  jobs: [
    {
      queue: ACTIVATE_PENDING_QUEUE,
      cron: '* * * * *',
      run: async ({ orm, deps, logger }) => {
        const activated = await activateDuePending(orm.em as EntityManager, deps.ledger);
        if (activated > 0) logger.info({ activated }, 'pending points activated');
      },
    },
    {
      queue: EXPIRE_LOTS_QUEUE,
      cron: '* * * * *',
      run: async ({ orm, deps, logger }) => {
        const expired = await expireAllDue(orm, deps.ledger);
        if (expired > 0) logger.info({ expired }, 'point lots expired');
      },
    },
    {
      queue: EXPIRY_NOTICE_QUEUE,
      cron: '0 8 * * *',
      run: async ({ orm, settings, logger }) => {
        const noticed = await noticeExpiringPoints(orm, settings.expiryNoticeDays);
        if (noticed > 0) logger.info({ noticed }, 'expiring points announced');
      },
    },
  ],
});
