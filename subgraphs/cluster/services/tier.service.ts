import { isRecordId, recordIdsAmong } from '../../../core/ids';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { AppError, badRequest, conflict, notFound } from '../../../core/errors';
import { Locale, projectLocale } from '../../../core/i18n';
import { offsetOf, Page, pageOf } from '../../../core/pagination';
import { containsAny } from '../../../core/search';
import { BENEFIT_LOCALIZED, Tier, TIER_LOCALIZED, TierBenefit, TierRequirement } from '../entities/tier';
import { CreateTierInput, TierBenefitInput, TierListArgs, TierRequirementInput, UpdateTierInput } from '../types/tier.types';

const TIER = 'Tier';

/** How many members a tier holds: members whose tier projection points at it. */
export interface TierMemberCount {
  tierId: string;
  count: number;
}

/** Membership tiers: localized CRUD with soft delete, one live tier per level. */
export class TierService {
  constructor(private readonly em: EntityManager) {}

  /** By level, then the oldest first. Inactive and deleted tiers only when asked for. */
  async list(args: TierListArgs, locale?: Locale): Promise<Page<Tier>> {
    const where: Record<string, unknown> = {};
    if (!args.includeDeletedAt) where.deletedAt = null;
    if (!args.includeInActive) where.isActive = true;
    if (args.search) Object.assign(where, containsAny(['name_en', 'name_th', 'name_cn'], args.search));
    const [items, total] = await this.em.findAndCount(Tier, where, {
      orderBy: { level: 'asc', createdAt: 'asc', id: 'asc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
    return pageOf(
      items.map((tier) => localized(tier, locale)),
      total,
      args,
    );
  }

  /** The live tiers among `ids` (active or not), in the order asked; unknown or deleted ids are left out. */
  async byIds(ids: string[], locale?: Locale): Promise<Tier[]> {
    const tiers = await this.em.find(Tier, { id: { $in: recordIdsAmong([...new Set(ids)]) }, deletedAt: null });
    const byId = new Map(tiers.map((tier) => [tier.id, tier]));
    return [...new Set(ids)].flatMap((id) => (byId.has(id) ? [localized(byId.get(id)!, locale)] : []));
  }

  async get(id: string, locale?: Locale): Promise<Tier> {
    return localized(await this.live(id), locale);
  }

  /** The live tier at `level` (active or not); 404 with `data.data.level`. */
  async byLevel(level: number, locale?: Locale): Promise<Tier> {
    const tier = await this.em.findOne(Tier, { level, deletedAt: null });
    if (!tier) throw new AppError('NOT_FOUND', `${TIER} not found`, [], { level });
    return localized(tier, locale);
  }

  async create(input: CreateTierInput): Promise<Tier> {
    const level = input.level ?? (await this.nextLevel());
    await this.assertLevelFree(level);
    const tier = this.em.create(Tier, {
      name_en: input.name_en,
      name_th: input.name_th ?? null,
      name_cn: input.name_cn ?? null,
      description_en: input.description_en,
      description_th: input.description_th ?? null,
      description_cn: input.description_cn ?? null,
      imageUrl: input.imageUrl ?? null,
      background: input.background ?? null,
      level,
      requirement: requirementOf(input.requirement),
      benefit: withLogos(benefitsOf(input.benefit ?? []), input.benefitLogoUrls),
      isActive: input.isActive ?? true,
      isSpecial: input.isSpecial ?? false,
    });
    await this.flushOrConflict(level);
    return tier;
  }

  async update(id: string, input: UpdateTierInput): Promise<Tier> {
    const tier = await this.live(id);
    if (input.name_en !== undefined) tier.name_en = input.name_en;
    if (input.description_en !== undefined) tier.description_en = input.description_en;
    for (const field of ['name_th', 'name_cn', 'description_th', 'description_cn', 'imageUrl', 'background'] as const) {
      if (input[field] !== undefined) tier[field] = input[field] ?? null;
    }
    if (input.level !== undefined && input.level !== tier.level) {
      await this.assertLevelFree(input.level);
      tier.level = input.level;
    }
    if (input.requirement !== undefined) tier.requirement = requirementOf(input.requirement);
    if (input.benefit !== undefined || input.benefitLogoUrls?.length) {
      tier.benefit = withLogos(input.benefit !== undefined ? benefitsOf(input.benefit) : tier.benefit, input.benefitLogoUrls);
    }
    if (input.isActive !== undefined) tier.isActive = input.isActive;
    if (input.isSpecial !== undefined) tier.isSpecial = input.isSpecial;
    await this.flushOrConflict(tier.level);
    return tier;
  }

  async setActive(id: string, isActive: boolean): Promise<Tier> {
    const tier = await this.live(id);
    tier.isActive = isActive;
    await this.em.flush();
    return tier;
  }

  /** Soft delete: the tier leaves reads and lists (unless includeDeletedAt) and frees its level. */
  async softDelete(id: string): Promise<Tier> {
    const tier = await this.live(id);
    tier.deletedAt = new Date();
    await this.em.flush();
    return tier;
  }

  async memberCount(id: string): Promise<TierMemberCount> {
    await this.live(id);
    const [row] = await this.em.getConnection().execute<Array<{ count: number }>>('select count(*)::int as count from cluster.tier_projection where tier_id = ?', [id]);
    return { tierId: id, count: row.count };
  }

  /** Every live tier (inactive included), by level, with its member count (0 included). */
  async memberCounts(): Promise<TierMemberCount[]> {
    const rows = await this.em.getConnection().execute<Array<{ tier_id: string; count: number }>>(
      `select t.id as tier_id, count(p.id)::int as count
         from cluster.tier t left join cluster.tier_projection p on p.tier_id = t.id
        where t.deleted_at is null
        group by t.id, t.level, t.created_at
        order by t.level, t.created_at, t.id`,
    );
    return rows.map((row) => ({ tierId: row.tier_id, count: row.count }));
  }

  private async live(id: string): Promise<Tier> {
    const tier = isRecordId(id) ? await this.em.findOne(Tier, { id, deletedAt: null }) : null;
    if (!tier) throw notFound(TIER, id);
    return tier;
  }

  private async nextLevel(): Promise<number> {
    const [row] = await this.em.getConnection().execute<Array<{ next: number }>>('select coalesce(max(level) + 1, 0)::int as next from cluster.tier where deleted_at is null');
    return row.next;
  }

  private async assertLevelFree(level: number): Promise<void> {
    if (await this.em.count(Tier, { level, deletedAt: null })) throw levelTaken(level);
  }

  /** The partial unique index settles two writes racing for one level. */
  private async flushOrConflict(level: number): Promise<void> {
    try {
      await this.em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw levelTaken(level);
      throw error;
    }
  }
}

const levelTaken = (level: number) => conflict(`A live tier with level ${level} already exists`, 'level');

const requirementOf = (input: TierRequirementInput): TierRequirement =>
  input.purchaseAmountHit === undefined || input.purchaseAmountHit === null ? {} : { purchaseAmountHit: input.purchaseAmountHit };

const BENEFIT_FIELDS = [
  'name_en',
  'name_th',
  'name_cn',
  'description_en',
  'description_th',
  'description_cn',
  'condition_en',
  'condition_th',
  'condition_cn',
  'type',
  'imageUrl',
] as const;

/** Plain jsonb items with every field present (null when not given). */
const benefitsOf = (items: TierBenefitInput[]): TierBenefit[] =>
  items.map((item) => Object.fromEntries(BENEFIT_FIELDS.map((field) => [field, item[field] ?? null])) as TierBenefit);

/** Uploaded benefit logos go, in order, to the benefit items without an imageUrl; more logos than such items is 400. */
function withLogos(benefits: TierBenefit[], logos: string[] | undefined): TierBenefit[] {
  if (!logos?.length) return benefits;
  const open = benefits.filter((benefit) => !benefit.imageUrl).length;
  if (logos.length > open) throw badRequest(`${logos.length} benefit logos for ${open} benefit items without imageUrl`, 'benefitLogos');
  const queue = [...logos];
  return benefits.map((benefit) => (benefit.imageUrl ? benefit : { ...benefit, imageUrl: queue.shift() ?? null }));
}

/** Localized copy of a tier (and its benefit items) for the `locale` projection. */
export function localized(tier: Tier, locale?: Locale): Tier {
  if (!locale) return tier;
  const projected = projectLocale(tier, TIER_LOCALIZED, locale);
  projected.benefit = tier.benefit.map((benefit) => projectLocale(benefit, BENEFIT_LOCALIZED, locale));
  return projected;
}
