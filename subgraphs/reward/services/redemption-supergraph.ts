import { Principal } from '../../../core/auth/principal';
import { AppError, notFound } from '../../../core/errors';
import { SupergraphClient } from '../../../core/supergraph-client';
import { AUTH } from '../../auth/contract';
import { POINT } from '../../point/contract';
import { Redemption } from '../entities/redemption';
import { hundredths, RedeemingMember } from './redeem-rules';

/** The documents redemption runs on the gateway (validated against the supergraph by `npm run schema:check`). */
export const REDEMPTION_OPERATIONS = {
  RedeemingMember: `query RedeemingMember($id: ID!) { member(id: $id) { id tier { id } pointBalance } }`,
  SpendForRedemption: `mutation SpendForRedemption($input: PointMovementInput!, $idempotencyKey: String) {
    spendPoints(input: $input, idempotencyKey: $idempotencyKey) { id } }`,
};

/**
 * The reward domain on the supergraph: a service principal of its own holding only what redemption
 * needs, reading any member's tier and balance (`member:read`, the gate of Query.member) and spending
 * points (`point:manage`, the gate of spendPoints). Never the caller's token: a member may not spend
 * its own points directly, and a staff member redeeming for a member need not hold either permission.
 */
export const REWARD_SERVICE_PRINCIPAL = new Principal('service', 'internal:reward', 'internal', [AUTH.permissions.memberRead, POINT.permissions.manage]);

/** How a spend of a redemption's points ended, as far as the reward domain can tell. */
export type SpendResult =
  | { kind: 'spent'; transactionId: string }
  /** The point domain refused it and wrote nothing (not enough points): it will not happen later. */
  | { kind: 'refused'; message: string }
  /** No answer, or an error that says nothing of the spend: it may have happened; a repeat tells. */
  | { kind: 'unknown'; error: AppError };

/** Codes of the point domain's answers that refuse a spend for good: the ledger wrote nothing and never will for this request. */
const REFUSALS = new Set(['BAD_REQUEST', 'VALIDATION']);

/** Reads members and spends points for redemptions, through the gateway, as the reward service. */
export class RedemptionPoints {
  constructor(private readonly supergraph: SupergraphClient) {}

  /** The member's tier (cluster) and balance (point) now, in one query; 404 for an unknown member. */
  async member(memberId: string, requestId?: string): Promise<RedeemingMember> {
    try {
      const data = await this.supergraph.run<{ member: { tier: { id: string } | null; pointBalance: number | null } }>(
        REDEMPTION_OPERATIONS.RedeemingMember,
        { id: memberId },
        requestId,
      );
      return { tierId: data.member.tier?.id ?? null, pointBalance: data.member.pointBalance ?? 0 };
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') throw notFound('Member', memberId);
      throw error;
    }
  }

  /**
   * Spends the redemption's points with the key `redemption:<id>` and the same body every time, so that
   * any number of tries (the request, a repeat, the recovery job) spend them at most once and a repeat
   * after a spend answers that spend.
   */
  async spend(redemption: Redemption, requestId?: string): Promise<SpendResult> {
    const input = {
      memberId: redemption.memberId,
      amount: (hundredths(redemption.pointUsage) * redemption.quantity) / 100,
      sourceBy: 'Reward',
      note: `Redemption ${redemption.id} of reward catalog ${redemption.rewardCatalogId}`,
    };
    try {
      const data = await this.supergraph.run<{ spendPoints: { id: string } }>(
        REDEMPTION_OPERATIONS.SpendForRedemption,
        { input, idempotencyKey: `redemption:${redemption.id}` },
        requestId,
      );
      return { kind: 'spent', transactionId: data.spendPoints.id };
    } catch (error) {
      const appError = error instanceof AppError ? error : new AppError('INTERNAL', String(error), [], undefined, error);
      return REFUSALS.has(appError.code) ? { kind: 'refused', message: appError.message } : { kind: 'unknown', error: appError };
    }
  }
}
