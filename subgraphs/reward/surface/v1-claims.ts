import { FieldError, validationError } from '../../../core/errors';
import { notFoundCode, type V1PlatformFailure, type V1RouteFailure } from '../../../core/rest/route';
import { declaredFailure } from '../../../core/rest/failures';
import { customerIdOf } from '../../../core/rest/path-ids';
import { RewardCodeStatus } from '../entities/reward-code';
import { REWARD_CATALOG } from '../services/reward-catalog.service';
import { RedeemRefusal } from '../types/redemption.types';

/** v1 claim `status` = the reward code's status in lower case. */
export const CLAIM_STATUSES = Object.values(RewardCodeStatus).map((status) => status.toLowerCase());

/** A reward code as the v1 operations select it. */
export interface CodeRecord {
  id: string;
  code: string;
  memberId: string;
  rewardCatalogId: string;
  qrCode: string;
  status: string;
  expiredAt: string;
  createdAt: string;
}

/** What the claim operation answers. */
export interface ClaimRecord {
  memberId: string;
  rewardCatalogId: string;
  quantity: number;
  pointsSpent: number;
  pointTransactionId: string | null;
  codes: CodeRecord[];
}

/** A reward code as a v1 claim: `reward_id` the catalog (the v1 reward), `voucher_code` the code, `qr_code` its data URL. */
export function claimOf(code: CodeRecord): Record<string, unknown> {
  return {
    id: code.id,
    customerId: code.memberId,
    rewardId: code.rewardCatalogId,
    voucherCode: code.code,
    qrCode: code.qrCode,
    status: code.status.toLowerCase(),
    expiresAt: code.expiredAt,
    createdAt: code.createdAt,
  };
}

/** POST /rewards/claim: the claim of one unit, the list of claims of several (subgraphs/reward/DECISIONS.md). */
export const claimAnswerOf = (claim: ClaimRecord): unknown => (claim.quantity === 1 ? claimOf(claim.codes[0]) : claim.codes.map(claimOf));

/** POST /points/redeem: what was spent and the claims it issued. */
export function redemptionAnswerOf(claim: ClaimRecord): Record<string, unknown> {
  return {
    customerId: claim.memberId,
    rewardId: claim.rewardCatalogId,
    quantity: claim.quantity,
    pointsRedeemed: Math.trunc(Number(claim.pointsSpent)),
    transactionId: claim.pointTransactionId,
    claims: claim.codes.map(claimOf),
  };
}

/** The claim operation's variables: the path's customer, the body's `reward_id` (required) and `quantity` (1 unless given). */
export function claimVariables(params: Record<string, string>, body: Record<string, unknown>): Record<string, unknown> {
  const memberId = customerIdOf(params);
  const { rewardId, quantity } = body;
  if (typeof rewardId !== 'string' || rewardId.length === 0 || rewardId.length > 256) {
    const errors: FieldError[] = [{ field: 'reward_id', message: 'reward_id is a reward id' }];
    if (quantity !== undefined && !Number.isInteger(quantity)) errors.push({ field: 'quantity', message: 'quantity is a whole number' });
    throw validationError(errors);
  }
  return { id: rewardId, memberId, quantity };
}

/** The redemption saga's refusals (reward subgraph RewardRedeemRefusal) → the v1 business rule codes. */
const RULE_BY_REFUSAL: Record<RedeemRefusal, string> = {
  NOT_ENOUGH_POINTS: 'INSUFFICIENT_POINTS',
  OUT_OF_STOCK: 'OUT_OF_STOCK',
  INACTIVE: 'NOT_ELIGIBLE',
  OUTSIDE_WINDOW: 'NOT_ELIGIBLE',
  LIMIT_PER_USER_REACHED: 'NOT_ELIGIBLE',
  QUOTA_REACHED: 'NOT_ELIGIBLE',
  TIER_NOT_INCLUDED: 'NOT_ELIGIBLE',
  TIER_EXCLUDED: 'NOT_ELIGIBLE',
};
/** The rules a refusal answers, in the order one of several reasons is chosen: eligibility first, then stock, then points. */
const CLAIM_RULES = {
  NOT_ELIGIBLE: 'the tier, the window, the limit per customer or the quota refuses the claim',
  OUT_OF_STOCK: 'fewer than quantity left',
  INSUFFICIENT_POINTS: 'the balance is below quantity × points_required',
};
const PRECEDENCE = Object.keys(CLAIM_RULES);

/** A claim's 404 by what was not found: the customer, else the reward (the catalog `reward_id` names). */
const CLAIM_NOT_FOUND = { [REWARD_CATALOG]: 'REWARD_NOT_FOUND', Member: 'CUSTOMER_NOT_FOUND' };

/**
 * The claim routes' own failures: a refusal is 422 with its rule's code and every reason in the
 * message; a 404 names the customer or the reward it concerns.
 */
function answerClaimFailure(failure: V1PlatformFailure): V1RouteFailure | undefined {
  if (failure.status === 404 && !failure.fieldErrors?.length) return { status: 404, code: notFoundCode(CLAIM_NOT_FOUND, failure.entity), message: failure.message };
  const reasons = (failure.data as { reasons?: Array<{ code: RedeemRefusal; message: string }> } | undefined)?.reasons;
  if (failure.status !== 400 || !reasons?.length) return undefined;
  const rules = reasons.map((reason) => RULE_BY_REFUSAL[reason.code] ?? 'NOT_ELIGIBLE');
  const code = PRECEDENCE.find((rule) => rules.includes(rule)) ?? 'NOT_ELIGIBLE';
  return { status: 422, code, message: reasons.map((reason) => reason.message).join('; ') };
}

export const claimFailure = declaredFailure({ 404: { CUSTOMER_NOT_FOUND: 'no such customer', REWARD_NOT_FOUND: 'no reward by reward_id' }, 422: CLAIM_RULES }, answerClaimFailure);

/** GET /customers/{id}/rewards: `status` one of available, used, expired; `page`, `limit`. */
export function customerRewardsVariables(params: Record<string, string>, query: Record<string, unknown>): Record<string, unknown> {
  const id = customerIdOf(params);
  const variables: Record<string, unknown> = { id, page: query.page, limit: query.limit };
  if (query.status !== undefined) {
    if (typeof query.status !== 'string' || !CLAIM_STATUSES.includes(query.status)) throw validationError([{ field: 'status', message: `status is one of ${CLAIM_STATUSES.join(', ')}` }]);
    variables.status = query.status.toUpperCase();
  }
  return variables;
}
