import { Principal } from '../../../core/auth/principal';
import { CallClient, remoteCall } from '../../../core/domain-calls';
import { AppError, notFound } from '../../../core/errors';
import { AUTH } from '../../auth/contract';
import { CLUSTER } from '../../cluster/contract';
import { POINT } from '../../point/contract';
import { Redemption } from '../entities/redemption';
import { hundredths, RedeemingMember } from './redeem-rules';

/** The documents redemption runs on the gateway when the other domains run elsewhere (validated against the supergraph by `npm run schema:check`). */
export const REDEMPTION_OPERATIONS = {
  RedeemingMember: `query RedeemingMember($id: ID!) { member(id: $id) { id tier { id } pointBalance } }`,
  SpendForRedemption: `mutation SpendForRedemption($input: PointMovementInput!, $idempotencyKey: String!) {
    spendPointsOnce(input: $input, idempotencyKey: $idempotencyKey) { id } }`,
};

/**
 * The reward domain as a caller of the others: a service principal of its own holding only what
 * redemption needs, reading any member (`member:read`, the gate of Query.member) and spending points
 * (`point:manage`, the gate of spendPointsOnce and of `point.spend`). Never the caller's token: a member may
 * not spend its own points directly, and a staff member redeeming for a member need not hold either permission.
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

/** The redemption's spend: `point.spend` in-process, `spendPointsOnce` through the gateway when the point domain runs elsewhere; either way its refusal is final for the key. */
const SPEND = remoteCall({
  type: POINT.calls.spend,
  document: REDEMPTION_OPERATIONS.SpendForRedemption,
  variables: ({ movement, idempotencyKey }) => ({ input: movement, idempotencyKey }),
  answer: (data: { spendPointsOnce: { id: string } }) => ({ transactionId: data.spendPointsOnce.id }),
});

/** What the member read needs: the tier only for a catalog with a tier condition, the balance only when points are asked. */
export interface MemberNeeds {
  tier: boolean;
  balance: boolean;
}

/**
 * The member a redemption reads, and the spend it makes, as the reward service. When auth, cluster and
 * point run in this process their own code answers (`auth.member` and `point.balance` at once, then
 * `cluster.memberTier`, each only when needed: no gateway, no GraphQL pipeline); else one federated
 * query, `RedeemingMember`, through the gateway.
 */
export class RedemptionCalls {
  constructor(private readonly client: CallClient) {}

  /** The member's tier (cluster) and balance (point) now, as far as `needs` asks; 404 for an unknown member. */
  async member(memberId: string, needs: MemberNeeds, requestId?: string): Promise<RedeemingMember> {
    if (!this.client.local(AUTH.calls.member, CLUSTER.calls.memberTier, POINT.calls.balance)) return this.memberThroughGateway(memberId, requestId);
    const [found, balance] = await Promise.all([
      this.client.call(AUTH.calls.member, { id: memberId }, requestId),
      needs.balance ? this.client.call(POINT.calls.balance, { memberId }, requestId) : { pointAmount: '0' },
    ]);
    if (!found) throw notFound('Member', memberId);
    const tier = needs.tier ? await this.client.call(CLUSTER.calls.memberTier, found, requestId) : { tierId: null };
    return { tierId: tier.tierId, pointBalance: balance.pointAmount };
  }

  private async memberThroughGateway(memberId: string, requestId?: string): Promise<RedeemingMember> {
    try {
      const data = await this.client.remote.run<{ member: { tier: { id: string } | null; pointBalance: number | null } }>(REDEMPTION_OPERATIONS.RedeemingMember, { id: memberId }, requestId);
      return { tierId: data.member.tier?.id ?? null, pointBalance: data.member.pointBalance ?? 0 };
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') throw notFound('Member', memberId);
      throw error;
    }
  }

  /**
   * Spends the redemption's points with the key `redemption:<id>` and the same body every time, so that
   * any number of tries (the request, a repeat, the recovery job), in-process or through the gateway,
   * spend them at most once and a try after a spend answers that spend; a refusal is kept as the key's
   * answer (PointService.spendOnce): a later try is refused too.
   */
  async spend(redemption: Redemption, requestId?: string): Promise<SpendResult> {
    const movement = {
      memberId: redemption.memberId,
      amount: (hundredths(redemption.pointUsage) * redemption.quantity) / 100,
      sourceBy: 'Reward' as const,
      note: `Redemption ${redemption.id} of reward catalog ${redemption.rewardCatalogId}`,
    };
    try {
      const { transactionId } = await this.client.run(SPEND, { movement, idempotencyKey: `redemption:${redemption.id}` }, requestId);
      return { kind: 'spent', transactionId };
    } catch (error) {
      const appError = error instanceof AppError ? error : new AppError('INTERNAL', String(error), [], undefined, error);
      return REFUSALS.has(appError.code) ? { kind: 'refused', message: appError.message } : { kind: 'unknown', error: appError };
    }
  }
}
