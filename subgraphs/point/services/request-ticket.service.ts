import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Principal } from '../../../core/auth/principal';
import { conflict, forbidden, notFoundNamed, validationError } from '../../../core/errors';
import { offsetOf, Page, pageOf } from '../../../core/pagination';
import { PointRequestActionType, PointRequestStatus, PointRequestTicket } from '../entities/point-request-ticket';
import { PointSource } from '../entities/point-transaction';
import { PointRequestInput, PointRequestListArgs, PointRequestReviewInput, REVIEW_DECIDES } from '../types/request-ticket.types';
import { onceForKey } from './idempotency';
import { LedgerService, PointMovement } from './ledger.service';

const TICKET = 'Point request ticket';

/** Point request tickets: opened by one staff member, approved or rejected by a reviewer. */
export class RequestTicketService {
  constructor(
    private readonly em: EntityManager,
    private readonly ledger: LedgerService,
  ) {}

  /** Opens a pending ticket; a repeat with the same Idempotency-Key and body returns the first ticket. */
  open(actionType: PointRequestActionType, input: PointRequestInput, caller: Principal, idempotencyKey?: string): Promise<PointRequestTicket> {
    return this.em.transactional(async (em) => {
      const scope = `request-${actionType.toLowerCase()}:${caller.kind}:${caller.id}`;
      const { id } = await onceForKey(em, scope, idempotencyKey, input, async () => {
        const ticket = em.create(PointRequestTicket, {
          memberId: input.memberId,
          actionType,
          // Amounts arrive validated to at most 2 decimals, so fixing them to 2 decimals is exact.
          amount: input.amount.toFixed(2),
          purchaseAmount: (input.purchaseAmount ?? 0).toFixed(2),
          shopId: input.shopId ?? null,
          categoryId: input.categoryId ?? null,
          requestReason: input.requestReason,
          requestedById: caller.id,
        });
        await em.flush();
        return ticket.id;
      });
      return em.findOneOrFail(PointRequestTicket, { id });
    });
  }

  /** Newest first. */
  async list(args: PointRequestListArgs): Promise<Page<PointRequestTicket>> {
    const where: Record<string, unknown> = {};
    if (args.status) where.status = args.status;
    if (args.actionType) where.actionType = args.actionType;
    const [items, total] = await this.em.findAndCount(PointRequestTicket, where, {
      orderBy: { createdAt: 'desc', id: 'desc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
    return pageOf(items, total, args);
  }

  async get(id: string): Promise<PointRequestTicket> {
    const ticket = await this.em.findOne(PointRequestTicket, { id });
    if (!ticket) throw notFoundNamed(TICKET);
    return ticket;
  }

  /**
   * Approves or rejects a pending ticket. The ticket row is locked for the whole transaction, so of
   * two concurrent reviews one applies and the other finds it reviewed (409). An approval writes the
   * ledger entry in the same transaction: a spend the balance cannot cover is refused (400) and the
   * ticket stays pending. Nobody approves their own request (four eyes); withdrawing it by a
   * rejection is allowed.
   */
  review(id: string, input: PointRequestReviewInput, caller: Principal): Promise<PointRequestTicket> {
    if (input.status === PointRequestStatus.pending) throw validationError([{ field: 'status', message: REVIEW_DECIDES }]);
    return this.em.transactional(async (em) => {
      const ticket = await em.findOne(PointRequestTicket, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!ticket) throw notFoundNamed(TICKET);
      if (ticket.status !== PointRequestStatus.pending) throw conflict(`${TICKET} already reviewed (${ticket.status})`, 'status');
      if (input.status === PointRequestStatus.approved && ticket.requestedById === caller.id) {
        throw forbidden('Forbidden: a point request must be approved by someone other than its requester');
      }
      const now = new Date();
      ticket.status = input.status;
      ticket.reviewReason = input.reviewReason;
      ticket.reviewedById = caller.id;
      ticket.reviewedAt = now;
      ticket.updatedAt = now;
      if (input.status === PointRequestStatus.approved) {
        const movement: PointMovement = {
          memberId: ticket.memberId,
          amount: ticket.amount,
          purchaseAmount: ticket.purchaseAmount,
          shopId: ticket.shopId,
          categoryId: ticket.categoryId,
          note: ticket.requestReason,
          sourceBy: PointSource.Manual,
          requestTicketId: ticket.id,
        };
        if (ticket.actionType === PointRequestActionType.EARN) await this.ledger.earn(em, movement);
        else await this.ledger.spend(em, movement);
      }
      await em.flush();
      return ticket;
    });
  }
}
