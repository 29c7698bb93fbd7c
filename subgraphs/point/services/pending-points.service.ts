import { EntityManager } from '@mikro-orm/postgresql';
import { conflict, notFound } from '../../../core/errors';
import { findPage, Page } from '../../../core/pagination';
import { PendingPoints } from '../entities/pending-points';
import { PendingPointsListArgs } from '../types/pending-points.types';
import { HELD_POINTS_COLUMNS, HeldPoints, LedgerService } from './ledger.service';

const PENDING = 'PendingPoints';
export const ACTIVATE_PENDING_QUEUE = 'point.activate-pending';
/** Holds activated per transaction by the job. */
export const ACTIVATION_BATCH = 5_000;

/** Held (pending) points: a member's list, and an admin's early activation or cancellation of one hold. */
export class PendingPointsService {
  constructor(
    private readonly em: EntityManager,
    private readonly ledger: LedgerService,
  ) {}

  /** A member's holds, the newest first. */
  async ofMember(args: PendingPointsListArgs): Promise<Page<PendingPoints>> {
    const where: Record<string, unknown> = { memberId: args.memberId };
    if (args.status) where.status = args.status;
    return findPage(this.em, PendingPoints, where, { createdAt: 'desc', id: 'desc' }, args, await this.em.count(PendingPoints, where));
  }

  /** Activates a hold now (early); 409 unless it is pending. */
  async activate(id: string): Promise<PendingPoints> {
    return this.em.transactional(async (em) => {
      await this.ledger.activate(em, [await this.lockedPending(em, id)], true);
      return em.findOneOrFail(PendingPoints, { id }, { refresh: true });
    });
  }

  /** Cancels what a hold still holds; 409 unless it is pending. */
  async cancel(id: string): Promise<PendingPoints> {
    return this.em.transactional(async (em) => {
      const held = await this.lockedPending(em, id);
      await this.ledger.cancelHeld(em, [{ id, memberId: held.member_id, amount: held.amount }]);
      return em.findOneOrFail(PendingPoints, { id }, { refresh: true });
    });
  }

  /** The hold's row, locked before the member's balance (as the job and refunds lock them); 404, or 409 when it is settled. */
  private async lockedPending(em: EntityManager, id: string): Promise<HeldPoints> {
    const [held]: Array<HeldPoints & { status: string }> = await em.execute(`select ${HELD_POINTS_COLUMNS}, status from point.pending_points where id = ? for update`, [id]);
    if (!held) throw notFound(PENDING, id);
    if (held.status !== 'pending') throw conflict(`The points are already ${held.status}`);
    return held;
  }
}

/**
 * The job: activates every hold that is due, in batches of ACTIVATION_BATCH, each batch one transaction
 * whose rows are taken `for update skip locked` (a refund or an admin holding one is left to them; other
 * workers take other rows). Returns how many it activated.
 */
export async function activateDuePending(root: EntityManager, ledger: LedgerService, batch = ACTIVATION_BATCH): Promise<number> {
  let activated = 0;
  for (;;) {
    const count = await root.fork().transactional(async (em) => {
      const due: HeldPoints[] = await em.execute(
        `select ${HELD_POINTS_COLUMNS} from point.pending_points
          where status = 'pending' and activates_at <= now() order by activates_at, id limit ? for update skip locked`,
        [batch],
      );
      await ledger.activate(em, due, false);
      return due.length;
    });
    activated += count;
    if (count < batch) return activated;
  }
}
