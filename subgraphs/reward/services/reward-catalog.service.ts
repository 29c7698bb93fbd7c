import { EntityManager } from '@mikro-orm/postgresql';
import { DESCRIBED } from '../../../core/catalog/catalog-entity';
import { CatalogService } from '../../../core/catalog/catalog.service';
import { FieldError, validationError } from '../../../core/errors';
import { Locale, LOCALES } from '../../../core/i18n';
import { offsetOf, Page, pageOf } from '../../../core/pagination';
import { escapeLike } from '../../../core/search';
import { Reward } from '../entities/reward';
import { RewardCatalog } from '../entities/reward-catalog';
import { RewardWindowInput } from '../types/reward.types';
import { AdvancedRules, CreateRewardCatalogInput, RedeemRuleInput, RewardCatalogListArgs, RewardQuotaInput, UpdateRewardCatalogInput } from '../types/reward-catalog.types';
import { STATUS_SQL } from './catalog-status';

const SORT_COLUMNS = { createdAt: 'c.created_at', pointUsage: 'c.point_usage' } as const;
const SEARCHED = DESCRIBED.flatMap((name) => LOCALES.map((language) => `c.${name}_${language}`));
/** What its errors call a reward catalog (`Reward catalog not found`: the entity of its 404s). */
export const REWARD_CATALOG = 'Reward catalog';

/** Reward catalogs: localized CRUD with soft delete, the rules between their fields, and the list's filters. */
export class RewardCatalogService extends CatalogService<RewardCatalog> {
  constructor(em: EntityManager) {
    super(em, { entity: RewardCatalog, label: REWARD_CATALOG, localized: DESCRIBED, orderBy: { createdAt: 'desc', id: 'asc' } });
  }

  /** One SQL query over the catalogs joined to their rewards (status and stores need the reward), and one count. */
  override async list(args: RewardCatalogListArgs, locale?: Locale): Promise<Page<RewardCatalog>> {
    const { where, params } = listConditions(args);
    const from = `from reward.reward_catalog c join reward.reward r on r.id = c.reward_id where ${where.join(' and ')}`;
    const connection = this.em.getConnection();
    const [{ total }] = await connection.execute<Array<{ total: number }>>(`select count(*)::int as total ${from}`, params);
    const rows = await connection.execute(`select c.* ${from} order by ${SORT_COLUMNS[args.sortBy]} ${args.sortOrder}, c.id asc limit ? offset ?`, [
      ...params,
      args.limit,
      offsetOf(args),
    ]);
    return pageOf(
      rows.map((row) => this.localize(this.em.map(RewardCatalog, row), locale)),
      total,
      args,
    );
  }

  async create(input: CreateRewardCatalogInput): Promise<RewardCatalog> {
    const catalog = this.em.create(RewardCatalog, {
      ...this.localizedValues({ ...input }),
      name_en: input.name_en,
      rewardId: input.rewardId,
      pointUsage: '0',
      tierCondition: input.tierCondition ?? null,
      tierRequirement: input.tierRequirement ?? [],
      imageUrl: input.imageUrl ?? null,
      isActive: input.isActive ?? true,
    });
    assignRedeemRule(catalog, input.redeemRule);
    assignQuota(catalog, input.quota);
    assignWindow(catalog, input.window);
    await this.check(catalog, input.rewardId);
    await this.flush(catalog);
    return catalog;
  }

  async update(id: string, input: UpdateRewardCatalogInput): Promise<RewardCatalog> {
    const catalog = await this.live(id);
    this.assignLocalized(catalog, { ...input });
    const { rewardId, tierCondition, imageUrl, isActive } = input;
    const given = { rewardId, tierCondition, imageUrl, isActive };
    this.assignGiven(catalog, given, Object.keys(given) as Array<keyof typeof given>);
    if (input.tierRequirement !== undefined) catalog.tierRequirement = input.tierRequirement ?? [];
    if (input.redeemRule) assignRedeemRule(catalog, input.redeemRule);
    if (input.quota !== undefined) assignQuota(catalog, input.quota);
    if (input.window !== undefined) assignWindow(catalog, input.window);
    await this.check(catalog, input.rewardId);
    await this.flush(catalog);
    return catalog;
  }

  /**
   * The rules between fields on the catalog as it would be stored: a tier condition comes with its
   * tiers and tiers with a condition, a window ends after it starts, and a given `rewardId` names a
   * live reward. 400 with every failing field.
   */
  private async check(catalog: RewardCatalog, rewardId: string | undefined): Promise<void> {
    const errors: FieldError[] = [];
    if (catalog.tierCondition && catalog.tierRequirement.length === 0) {
      errors.push({ field: 'tierRequirement', message: 'tierRequirement must name at least one tier with a tierCondition' });
    }
    if (!catalog.tierCondition && catalog.tierRequirement.length > 0) {
      errors.push({ field: 'tierCondition', message: 'tierCondition is required with a tierRequirement' });
    }
    if (catalog.windowStart && catalog.windowEnd && catalog.windowEnd <= catalog.windowStart) {
      errors.push({ field: 'window.end', message: 'window.end must be after window.start' });
    }
    if (rewardId && !(await this.em.count(Reward, { id: rewardId }))) errors.push({ field: 'rewardId', message: 'rewardId names no reward' });
    if (errors.length > 0) throw validationError(errors);
  }
}

/** The list's filters as SQL conditions on the catalog `c` and its reward `r`, with their parameters in order. */
function listConditions(args: RewardCatalogListArgs): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (condition: string, ...values: unknown[]) => {
    where.push(condition);
    params.push(...values);
  };
  if (args.pointUsageMin !== undefined && args.pointUsageMax !== undefined && args.pointUsageMin > args.pointUsageMax) {
    throw validationError([{ field: 'pointUsageMax', message: 'pointUsageMax must be at least pointUsageMin' }]);
  }
  if (args.dateRangeStart && args.dateRangeEnd && args.dateRangeStart > args.dateRangeEnd) {
    throw validationError([{ field: 'dateRangeEnd', message: 'dateRangeEnd must not be before dateRangeStart' }]);
  }
  add(args.includeDeletedAt ? 'true' : 'c.deleted_at is null');
  if (!args.includeInActive) add('c.is_active');
  if (args.search) add(`(${SEARCHED.map((column) => `${column} ilike ?`).join(' or ')})`, ...SEARCHED.map(() => `%${escapeLike(args.search!)}%`));
  if (args.status) add(`(${STATUS_SQL[args.status]})`);
  if (args.advancedRules) add(args.advancedRules === AdvancedRules.CUSTOM ? 'c.tier_condition is not null' : 'c.tier_condition is null');
  if (args.dateRangeStart) add('(c.window_end is null or c.window_end >= ?)', args.dateRangeStart);
  if (args.dateRangeEnd) add('(c.window_start is null or c.window_start <= ?)', args.dateRangeEnd);
  if (args.tierRequirementIds?.length) add('c.tier_requirement && array[?]::text[]', args.tierRequirementIds);
  if (args.tierCondition) add('c.tier_condition = ?', args.tierCondition);
  if (args.pointUsageMin !== undefined) add('c.point_usage >= ?', args.pointUsageMin.toFixed(2));
  if (args.pointUsageMax !== undefined) add('c.point_usage <= ?', args.pointUsageMax.toFixed(2));
  if (args.rewardType) add('r.type = ?', args.rewardType);
  if (args.eligibleTierId) add("(c.tier_condition is null or (c.tier_condition = 'INCLUDE') = (? = any(c.tier_requirement)))", args.eligibleTierId);
  if (args.available !== undefined) add(args.available ? `(c.is_active and ${STATUS_SQL.ACTIVE})` : `not (c.is_active and ${STATUS_SQL.ACTIVE})`);
  if (args.storeIds?.length) add("(r.store_ids = '{}' or r.store_ids && array[?]::text[])", args.storeIds);
  return { where, params };
}

function assignRedeemRule(catalog: RewardCatalog, rule: RedeemRuleInput): void {
  catalog.pointUsage = rule.pointUsage.toFixed(2);
  catalog.limitPerUser = rule.limitPerUser ?? null;
}

/** Replaces the whole quota (null clears it). */
function assignQuota(catalog: RewardCatalog, quota: RewardQuotaInput | null | undefined): void {
  catalog.quotaType = quota?.type ?? null;
  catalog.quotaNumberInPeriod = quota?.numberInPeriod ?? null;
  catalog.quotaLimitPerPeriod = quota?.limitPerPeriod ?? null;
}

function assignWindow(catalog: RewardCatalog, window: RewardWindowInput | null | undefined): void {
  catalog.windowStart = window?.start ?? null;
  catalog.windowEnd = window?.end ?? null;
}
