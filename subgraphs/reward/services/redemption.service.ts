import { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { Principal } from '../../../core/auth/principal';
import { INCLUDING_DELETED } from '../../../core/db/soft-deletable';
import { isUniqueViolation, Statement } from '../../../core/db/statement';
import { AppError, conflict, forbidden, validationError } from '../../../core/errors';
import { Redemption, RedemptionState } from '../entities/redemption';
import { Reward, StockType } from '../entities/reward';
import { RewardCatalog } from '../entities/reward-catalog';
import { RewardCode } from '../entities/reward-code';
import { ClaimArgs, GrantArgs, RedeemArgs, RedeemCheck, RedeemReason, RedeemRefusal, RewardClaim } from '../types/redemption.types';
import { hundredths, quotaPeriod, RedeemingMember, redeemRefusals } from './redeem-rules';
import { RedemptionCalls } from './redemption-calls';
import { complete, RedemptionOutcome, settleRedemption } from './redemption-settlement';
import { atRedemptionStep } from './redemption-test-hooks';
import { RewardCatalogService } from './reward-catalog.service';

/** 400 naming every rule that fails, their codes in `data.reasons` (REST `data.data.reasons`). */
export const refusal = (reasons: RedeemReason[]) => new AppError('BAD_REQUEST', reasons[0].message, [], { reasons });

/**
 * Can-redeem and redemption of reward catalogs. The rules (services/redeem-rules.ts) read the catalog
 * and its reward here, the member's tier and balance from their owners (services/redemption-calls.ts:
 * in-process when they run here, else through the supergraph), and the member's and the period's
 * redemptions. A redemption is a saga over this schema and the point domain:
 *
 * 1. reserve: the rules, then one statement taking and counting the units on the reward and the
 *    catalog (the rows every redeemer waits on, once) and writing the PENDING redemption; in a
 *    transaction under the member's lock (and the catalog's for a quota) only when the rules count
 *    redemptions;
 * 2. spend the points (`point.spend`), idempotent on `redemption:<id>`, with no transaction of ours open;
 * 3. complete (services/redemption-settlement.ts), one statement while it is still PENDING: the codes
 *    and `reward.claimed`; or, when the point domain refuses, compensate: the units back to the stock
 *    and off the counts,
 *    FAILED.
 *
 * A process that dies on the way leaves a PENDING redemption that a repeat of the request or the
 * recovery job (services/redemption-recovery.ts) settles.
 */
export class RedemptionService {
  constructor(
    private readonly em: EntityManager,
    private readonly calls: RedemptionCalls,
  ) {}

  /** Whether the member may redeem the catalog now, with every rule that stops it. 404 for an unknown catalog or member. */
  async check(catalogId: string, caller: Principal, memberId?: string): Promise<RedeemCheck> {
    const member = memberFor(caller, memberId);
    const { catalog, reward } = await catalogOf(this.em, catalogId);
    const reasons = await refusals(this.em, { catalog, reward, memberId: member, member: await this.calls.member(member, memberNeeds(catalog)), quantity: 1 });
    return { canRedeem: reasons.length === 0, reasons };
  }

  /**
   * Redeems the catalog for the member: its code once the points are spent. A repeat of the member's
   * `idempotencyKey` answers the first redemption's code or refusal (settling it first if it is still
   * PENDING); the key with another catalog is 409. 400 with the reasons when a rule fails, 503 when the
   * point domain does not answer (the redemption stays PENDING: repeat it).
   */
  async redeem(args: RedeemArgs, caller: Principal, requestId?: string): Promise<RewardCode> {
    const memberId = memberFor(caller, args.memberId);
    const { codes } = await this.redeemUnits({ catalogId: args.id, quantity: 1, idempotencyKey: args.idempotencyKey }, memberId, requestId);
    return codes[0];
  }

  /**
   * Claims `quantity` units of the catalog at once, all or none: one redemption taking as many units
   * of stock, spending `quantity` × the price in one spend and issuing `quantity` codes. The key is the
   * caller's (scoped as `v1:<caller>:<key>`; a fresh one when none is given); a repeat answers the same
   * claim, the key with another catalog or quantity is 409. Refusals and failures as `redeem`.
   */
  async claim(args: ClaimArgs, caller: Principal, requestId?: string): Promise<RewardClaim> {
    const memberId = memberFor(caller, args.memberId);
    const idempotencyKey = `v1:${caller.kind}:${caller.id}:${args.idempotencyKey ?? randomUUID()}`;
    return claimOf(await this.redeemUnits({ catalogId: args.id, quantity: args.quantity, idempotencyKey }, memberId, requestId));
  }

  /**
   * Grants one unit of the catalog to the member without spending points (a campaign's reward): a unit
   * of stock, a code and `reward.claimed` (pointUsage 0), in one transaction under the member's lock.
   * The catalog's redeem rules (window, tiers, limits) are the granting party's business; stock is not:
   * none left is 400 OUT_OF_STOCK. A repeat of `reference` answers the same claim (another catalog: 409).
   * 404 for an unknown member or catalog.
   */
  async grant(args: GrantArgs, requestId?: string): Promise<RewardClaim> {
    const memberId = args.memberId.toLowerCase();
    const ask: UnitsAsked = { catalogId: args.id, quantity: 1, idempotencyKey: `grant:${args.reference}` };
    await this.calls.member(memberId, { tier: false, balance: false }, requestId);
    return this.em.fork().transactional(async (em) => {
      await lockMember(em, memberId);
      const earlier = await em.findOne(Redemption, { memberId, idempotencyKey: ask.idempotencyKey });
      if (earlier && !sameAsk(earlier, ask)) throw keyReused(earlier, ask);
      if (earlier) return claimOf(answer(await settleRedemption(em, earlier, this.calls, requestId)));
      const { catalog, reward } = await catalogOf(em, ask.catalogId);
      const stockTaken = reward?.stockType === StockType.LIMITED;
      if ((await unitsTaken.run(em, unitsOf(catalog, 1, stockTaken))).length === 0) throw refusal([{ code: RedeemRefusal.OUT_OF_STOCK, message: 'The reward is out of stock' }]);
      const claimedAt = new Date();
      const redemption = em.create(Redemption, {
        memberId,
        rewardCatalogId: catalog.id,
        rewardId: catalog.rewardId,
        pointUsage: '0',
        idempotencyKey: ask.idempotencyKey,
        stockTaken,
        state: RedemptionState.COMPLETED,
        completedAt: claimedAt,
      });
      await em.flush();
      return claimOf({ redemption, codes: await complete(em, redemption, await rewardOf(em, reward, catalog), claimedAt) });
    });
  }

  /** The redemption of the key (begun now unless it exists), settled: its codes, or its refusal. */
  private async redeemUnits(ask: UnitsAsked, memberId: string, requestId?: string): Promise<{ redemption: Redemption; codes: RewardCode[] }> {
    let redemption = await this.em.findOne(Redemption, { memberId, idempotencyKey: ask.idempotencyKey });
    if (redemption && !sameAsk(redemption, ask)) throw keyReused(redemption, ask);
    let reward: Reward | null = null;
    if (!redemption) {
      const found = await catalogOf(this.em, ask.catalogId).catch(async (error: unknown) => {
        // An unknown member is named before an unknown catalog.
        await this.calls.member(memberId, { tier: false, balance: false }, requestId);
        throw error;
      });
      const member = await this.calls.member(memberId, memberNeeds(found.catalog), requestId);
      redemption = await this.reserve(ask, memberId, { ...found, member });
      if (!sameAsk(redemption, ask)) throw keyReused(redemption, ask);
      reward = found.reward;
      await atRedemptionStep('reserved', redemption);
    }
    return answer(await settleRedemption(this.em, redemption, this.calls, requestId, reward ?? undefined));
  }

  /**
   * Step 1: the rules, then the units and the PENDING row written by one statement (`reserveUnits`). A
   * catalog with a limit per member or a quota counts redemptions: in one transaction, under the
   * member's lock (and the catalog's for a quota, which counts every member), so that the counts the
   * rules see hold until the commit. One without either needs no lock and no transaction: its rules look
   * only at what was read before, and the statement is atomic. A redemption of the same key committed
   * meanwhile (the key is unique per member: the statement fails and is undone) is returned instead, as
   * it is when the rules or the stock refuse (a refusal caused by that redemption, its stock or its
   * spend, comes after it committed).
   */
  private async reserve(ask: UnitsAsked, memberId: string, found: CatalogAndReward & { member: RedeemingMember }): Promise<Redemption> {
    const earlierOfKey = () => this.em.findOne(Redemption, { memberId, idempotencyKey: ask.idempotencyKey });
    try {
      const reserved = countsRedemptions(found.catalog)
        ? await this.em.fork().transactional((em) => reserveUnderLocks(em, ask, memberId, found))
        : await reserveUnits(this.em, ask, memberId, found);
      if (reserved) return reserved;
      throw refusal([{ code: RedeemRefusal.OUT_OF_STOCK, message: 'The reward is out of stock' }]);
    } catch (error) {
      if (!(error instanceof AppError) && !isUniqueViolation(error)) throw error;
      const earlier = await earlierOfKey();
      if (earlier) return earlier;
      throw error;
    }
  }
}

/** Whether the catalog's rules count redemptions (a limit per member, a quota): then they run under locks. */
const countsRedemptions = (catalog: RewardCatalog) => catalog.limitPerUser !== null || catalog.quota !== null;

/** Step 1 of a catalog whose rules count redemptions, in the caller's transaction: the member's lock, an earlier redemption of the key, the catalog's lock for a quota, the rules, the units. */
async function reserveUnderLocks(em: EntityManager, ask: UnitsAsked, memberId: string, found: CatalogAndReward & { member: RedeemingMember }): Promise<Redemption | null> {
  await lockMember(em, memberId);
  const earlier = await em.findOne(Redemption, { memberId, idempotencyKey: ask.idempotencyKey });
  if (earlier) return earlier;
  if (found.catalog.quota) await em.execute(`select pg_advisory_xact_lock(hashtext(?))`, [`reward.redemption:catalog:${found.catalog.id}`]);
  return reserveUnits(em, ask, memberId, found);
}

/** The rules (400 with every reason), then the units taken and counted and the PENDING row, in one statement; null when the units are not there. */
async function reserveUnits(em: EntityManager, ask: UnitsAsked, memberId: string, { catalog, reward, member }: CatalogAndReward & { member: RedeemingMember }): Promise<Redemption | null> {
  const reasons = await refusals(em, { catalog, reward, memberId, member, quantity: ask.quantity });
  if (reasons.length > 0) throw refusal(reasons);
  const stockTaken = reward?.stockType === StockType.LIMITED;
  const [row] = await unitsReserved.run<Record<string, unknown>>(em, {
    ...unitsOf(catalog, ask.quantity, stockTaken),
    id: randomUUID(),
    memberId,
    pointUsage: catalog.pointUsage,
    idempotencyKey: ask.idempotencyKey,
  });
  return row ? em.map(Redemption, row) : null;
}

/** The parameters of `UNITS_TAKEN`: `quantity` units of the reward's catalog, `take` of them from its stock. */
type UnitsParams = {
  catalogId: string;
  rewardId: string;
  quantity: number;
  take: number;
  stockTaken: boolean;
};

/**
 * Two data-modifying CTEs: `quantity` units counted on the reward and the catalog and, when the reward's
 * stock is LIMITED (`stockTaken`), taken from it with the conditional UPDATE of decrease-stock (`take`
 * units of a live reward with that many left); `catalog` holds a row only when they were. The reward's
 * row before the catalog's (the order a code's use and a compensation take them in: the catalog's
 * update joins the count of the reward's, so that it runs after it): every redeemer of the catalog
 * waits on those two rows, held until the statement's (or the caller's transaction's) commit.
 */
const UNITS_TAKEN = `
  reward as (
    update reward.reward set stock = stock - :take::int, redeemed_count = redeemed_count + :quantity::int,
           updated_at = case when :stockTaken::boolean then now() else updated_at end
     where id = :rewardId::uuid and (not :stockTaken::boolean or (deleted_at is null and stock_type = 'LIMITED' and stock >= :take::int)) returning id),
  catalog as (
    update reward.reward_catalog c set redeemed_count = c.redeemed_count + :quantity::int from (select count(*) as n from reward) as counted
     where c.id = :catalogId::uuid and (counted.n > 0 or not :stockTaken::boolean) returning c.id)`;

/** The units alone (a grant's, whose redemption the ORM writes COMPLETED in the same transaction): a row when they were taken. */
const unitsTaken = new Statement<UnitsParams>(`with ${UNITS_TAKEN} select from catalog`);

/** Step 1's writes in one statement: the units, then, only when they were taken, the PENDING redemption. */
const unitsReserved = new Statement<UnitsParams & { id: string; memberId: string; pointUsage: string; idempotencyKey: string }>(`
  with ${UNITS_TAKEN}
  insert into reward.redemption (id, member_id, reward_catalog_id, reward_id, point_usage, idempotency_key, quantity, stock_taken, created_at, updated_at)
  select :id::uuid, :memberId::uuid, :catalogId::uuid, :rewardId::uuid, :pointUsage::numeric, :idempotencyKey::text, :quantity::int, :stockTaken::boolean, now(), now()
   where exists (select from catalog)
  returning *`);

/** The params of `UNITS_TAKEN` for `quantity` units of the catalog. */
const unitsOf = (catalog: RewardCatalog, quantity: number, stockTaken: boolean): UnitsParams => ({
  catalogId: catalog.id,
  rewardId: catalog.rewardId,
  quantity,
  take: stockTaken ? quantity : 0,
  stockTaken,
});

/** A live catalog and its reward (deleted or not; null: gone). */
interface CatalogAndReward {
  catalog: RewardCatalog;
  reward: Reward | null;
}

/** The live catalog (404 `Reward catalog` else) and its reward, read once per request. */
async function catalogOf(em: EntityManager, catalogId: string): Promise<CatalogAndReward> {
  const catalog = await new RewardCatalogService(em).get(catalogId);
  return { catalog, reward: await em.findOne(Reward, { id: catalog.rewardId }, INCLUDING_DELETED) };
}

/** The reward as a grant's codes need it: the one read, or (gone) the catalog's row as it is. */
const rewardOf = async (em: EntityManager, reward: Reward | null, catalog: RewardCatalog) => reward ?? (await em.findOneOrFail(Reward, { id: catalog.rewardId }, INCLUDING_DELETED));

/** What of the member the catalog's rules look at: its tier only under a tier condition, its balance only at a price. */
const memberNeeds = (catalog: RewardCatalog) => ({ tier: catalog.tierCondition !== null, balance: hundredths(catalog.pointUsage) > 0 });

/** The member's lock, under which its redemptions begin one at a time (limits and keys are checked under it). */
const lockMember = (em: EntityManager, memberId: string) => em.execute(`select pg_advisory_xact_lock(hashtext(?))`, [`reward.redemption:member:${memberId}`]);

/**
 * The rules of the catalog for the member at this moment, on what `em` sees; the member's and the
 * period's redemptions are counted only when the catalog has a limit or a quota.
 */
async function refusals(
  em: EntityManager,
  { catalog, reward, memberId, member, quantity }: CatalogAndReward & { memberId: string; member: RedeemingMember; quantity: number },
): Promise<RedeemReason[]> {
  const now = new Date();
  let byMember = 0;
  if (catalog.limitPerUser !== null) {
    const [row] = await em.execute(
      `select coalesce(sum(quantity), 0)::int as n from reward.redemption where member_id = ? and reward_catalog_id = ? and state <> 'FAILED'`,
      [memberId, catalog.id],
    );
    byMember = row.n;
  }
  let inPeriod = 0;
  const quota = catalog.quota;
  if (quota) {
    const period = quotaPeriod(quota.type, quota.numberInPeriod, now);
    const [row] = await em.execute(
      `select coalesce(sum(quantity), 0)::int as n from reward.redemption
        where reward_catalog_id = ? and state <> 'FAILED' and created_at >= ? and created_at < ?`,
      [catalog.id, period.start, period.end],
    );
    inPeriod = row.n;
  }
  return redeemRefusals({ catalog, reward, member, redeemedByMember: byMember, redeemedInPeriod: inPeriod, quantity }, now);
}

/**
 * The member a call is for, as the lowercase UUID its locks and keys are taken on: a member itself
 * (naming another is 403); for reward:manage, `memberId` (required).
 */
function memberFor(caller: Principal, memberId: string | undefined): string {
  if (caller.kind === 'member') {
    if (memberId !== undefined && !sameId(memberId, caller.id)) throw forbidden('A member redeems for itself only');
    return caller.id.toLowerCase();
  }
  if (!memberId) throw validationError([{ field: 'memberId', message: 'memberId is required' }]);
  return memberId.toLowerCase();
}

/** UUIDs compare without regard to case, as PostgreSQL compares them. */
const sameId = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** What a redemption is asked for: its catalog, units and key. */
interface UnitsAsked {
  catalogId: string;
  quantity: number;
  idempotencyKey: string;
}

/** Whether a redemption of the key is what was asked (same catalog, same units). */
const sameAsk = (redemption: Redemption, ask: UnitsAsked) => sameId(redemption.rewardCatalogId, ask.catalogId) && redemption.quantity === ask.quantity;

const keyReused = (redemption: Redemption, ask: UnitsAsked) =>
  conflict(
    sameId(redemption.rewardCatalogId, ask.catalogId) ? 'This Idempotency-Key was used to redeem another quantity' : 'This Idempotency-Key was used to redeem another reward catalog',
    'Idempotency-Key',
  );

/** A settled redemption as the claim it answers: its codes and the points it spent. */
const claimOf = ({ redemption, codes }: { redemption: Redemption; codes: RewardCode[] }): RewardClaim => ({
  redemptionId: redemption.id,
  memberId: redemption.memberId,
  rewardCatalogId: redemption.rewardCatalogId,
  quantity: redemption.quantity,
  pointsSpent: ((hundredths(redemption.pointUsage) * redemption.quantity) / 100).toFixed(2),
  pointTransactionId: redemption.pointTransactionId,
  codes,
});

/** The codes of a completed redemption; the refusal of a failed one; 503 for one still pending. */
function answer(outcome: RedemptionOutcome): { redemption: Redemption; codes: RewardCode[] } {
  if (outcome.state === 'COMPLETED') return { redemption: outcome.redemption, codes: outcome.codes };
  if (outcome.state === 'FAILED') throw refusal([outcome.reason]);
  throw new AppError('UNAVAILABLE', 'The redemption is being processed: repeat the request with the same Idempotency-Key for its outcome', [], undefined, outcome.error);
}
