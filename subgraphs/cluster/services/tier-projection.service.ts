import { INCLUDING_DELETED } from '../../../core/db/soft-deletable';
import { isRecordId } from '../../../core/ids';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { badRequest, conflict, notFound } from '../../../core/errors';
import { tallyByKey } from '../../../core/db/tally';
import { findPage, offsetOf, Page, pageOf } from '../../../core/pagination';
import { containsAny } from '../../../core/search';
import { Tier } from '../entities/tier';
import { TierChangeType, TierHistory } from '../entities/tier-history';
import { TierProjection } from '../entities/tier-projection';
import { AssignTierInput, TierHistoryArgs, TierProjectionListArgs, TierProjectionUpdate, TierYearlySummary, UpdateTierProjectionInput } from '../types/tier-projection.types';
import { recordTierChange } from './tier-change';
import { TIER_MEMBERS } from './tier.service';

const PROJECTION = 'Tier projection';
const DAY_MS = 24 * 3600 * 1000;

/** Members' current tiers and their history: reads, the first assignment and staff changes. */
export class TierProjectionService {
  constructor(private readonly em: EntityManager) {}

  /** 404 (with `data.id` the member id) when the member has no tier. */
  async get(memberId: string): Promise<TierProjection> {
    const projection = await this.em.findOne(TierProjection, { memberId });
    if (!projection) throw notFound(PROJECTION, memberId);
    await this.prefetchTiers([projection.tierId]);
    return projection;
  }

  /** Newest first; `search` matches the tier's name in any language. */
  async list(args: TierProjectionListArgs): Promise<Page<TierProjection>> {
    const tierWhere: Record<string, unknown> = {};
    if (!args.includeInActive) tierWhere.isActive = true;
    if (args.tierId) tierWhere.id = isRecordId(args.tierId) ? args.tierId : { $in: [] };
    if (args.search) Object.assign(tierWhere, containsAny(['name_en', 'name_th', 'name_cn'], args.search));
    const tierIds = (await this.em.find(Tier, tierWhere, args.includeDeletedAt ? INCLUDING_DELETED : {})).map((tier) => tier.id);
    const counts = await tallyByKey(this.em, 'cluster', TIER_MEMBERS, tierIds);
    const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
    return findPage(this.em, TierProjection, { tierId: { $in: tierIds } }, { createdAt: 'desc', id: 'asc' }, args, total);
  }

  /** The member's moves, newest first; `actionType` keeps one change type. */
  async history(memberId: string, args: TierHistoryArgs): Promise<Page<TierHistory>> {
    const where: Record<string, unknown> = { memberId };
    if (args.actionType) where.changeType = args.actionType;
    if (args.start || args.end) {
      const from = args.start ? new Date(args.start) : new Date(0);
      const to = args.end ? new Date(new Date(args.end).getTime() + (/^\d{4}-\d{2}-\d{2}$/.test(args.end) ? DAY_MS : 1)) : new Date('9999-12-31T23:59:59.999Z');
      where.createdAt = { $gte: from, $lt: to };
    }
    const [items, total] = await this.em.findAndCount(TierHistory, where, {
      orderBy: { createdAt: 'desc', id: 'desc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
    await this.prefetchTiers(items.flatMap((item) => [item.fromTierId, item.toTierId]));
    return pageOf(items, total, args);
  }

  /** Members per live tier now; upgrades and downgrades (expiries included) from the year's history. */
  async yearlySummary(given?: number | null): Promise<TierYearlySummary> {
    // GraphQL passes an explicit null, which a default parameter would not replace.
    const year = given ?? new Date().getUTCFullYear();
    const tiers: Array<{ id: string; name_en: string }> = await this.em.execute(
      'select id, name_en from cluster.tier where deleted_at is null order by level, created_at, id',
    );
    const members = await tallyByKey(this.em, 'cluster', TIER_MEMBERS, tiers.map((tier) => tier.id));
    const [counts] = await this.em.execute(
      `select count(*) filter (where change_type = 'upgrade')::int as upgrades,
              count(*) filter (where change_type = 'downgrade')::int as downgrades,
              count(*) filter (where change_type = 'expiry')::int as expiries
         from cluster.tier_history
        where created_at >= make_timestamptz(?, 1, 1, 0, 0, 0, 'UTC') and created_at < make_timestamptz(?, 1, 1, 0, 0, 0, 'UTC')`,
      [year, year + 1],
    );
    return {
      year,
      tierDistribution: tiers.map((tier) => ({ tierId: tier.id, tierName_en: tier.name_en, memberCount: members.get(tier.id)! })),
      upgrades: counts.upgrades,
      downgrades: counts.downgrades + counts.expiries,
      expiries: counts.expiries,
    };
  }

  /** A member's first tier; 409 on `memberId` when the member has one (change it with update). */
  async assign(input: AssignTierInput): Promise<TierProjection> {
    await this.usableTier(input.tierId, 'tierId');
    if (await this.em.count(TierProjection, { memberId: input.memberId })) throw alreadyAssigned();
    const tierEndAt = input.tierEndAt ? new Date(input.tierEndAt) : null;
    const projection = this.em.create(TierProjection, { memberId: input.memberId, tierId: input.tierId, tierEndAt });
    try {
      await recordTierChange(this.em, {
        memberId: input.memberId,
        fromTierId: null,
        toTierId: input.tierId,
        changeType: 'assign',
        source: 'assign',
        tierEndAt,
        snapshot: {},
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw alreadyAssigned();
      throw error;
    }
    return projection;
  }

  /** Moves the member to `newTierTypeId` with a history item, under the projection's row lock. */
  update(memberId: string, input: UpdateTierProjectionInput): Promise<TierProjectionUpdate> {
    return this.em.transactional(async (em) => {
      const projection = await em.findOne(TierProjection, { memberId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!projection) throw notFound(PROJECTION, memberId);
      await new TierProjectionService(em).usableTier(input.newTierTypeId, 'newTierTypeId');
      const fromTierId = projection.tierId;
      projection.tierId = input.newTierTypeId;
      projection.tierEndAt = new Date(input.tierEndAt);
      projection.updatedAt = new Date();
      await recordTierChange(em, {
        memberId,
        fromTierId,
        toTierId: input.newTierTypeId,
        changeType: input.changeType as TierChangeType,
        source: 'manual',
        tierEndAt: projection.tierEndAt,
        snapshot: { points: input.snapshot.points },
      });
      await new TierProjectionService(em).prefetchTiers([projection.tierId]);
      return { success: true, projection };
    });
  }

  /** Loads tiers into the unit of work, so the `tier` fields of a page resolve without a query each. */
  async prefetchTiers(ids: Array<string | null>): Promise<void> {
    const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
    if (wanted.length > 0) await this.em.find(Tier, { id: { $in: wanted } }, INCLUDING_DELETED);
  }

  /** Assignments take live, active tiers (special ones too): 400 on the field otherwise. */
  private async usableTier(id: string, field: string): Promise<Tier> {
    const tier = isRecordId(id) ? await this.em.findOne(Tier, { id, isActive: true }) : null;
    if (!tier) throw badRequest('No active tier has this id', field);
    return tier;
  }
}

const alreadyAssigned = () => conflict('The member already has a tier: change it with PUT /tier-projections/:memberId', 'memberId');
