import { EntityManager } from '@mikro-orm/postgresql';
import { tallyByKey } from '../../../core/db/tally';
import { DESCRIBED } from '../../../core/catalog/catalog-entity';
import { CatalogService } from '../../../core/catalog/catalog.service';
import { AppError, badRequest, conflict } from '../../../core/errors';
import { Locale, projectLocale } from '../../../core/i18n';
import { recordEvent } from '../../../core/events/outbox-event';
import { recordIdsAmong } from '../../../core/ids';
import { CLUSTER } from '../contract';
import { BENEFIT_LOCALIZED, Tier, TierBenefit, TierRequirement } from '../entities/tier';
import { CreateTierInput, TierBenefitInput, TierRequirementInput, UpdateTierInput } from '../types/tier.types';

/** The cluster tally of each tier's members (tier projections), by tier id. */
export const TIER_MEMBERS = 'tier_members';

/** How many members a tier holds: members whose tier projection points at it. */
export interface TierMemberCount {
  tierId: string;
  count: number;
}

/** Membership tiers: localized CRUD with soft delete, one live tier per level; each write announced (`tier.catalog_changed`). */
export class TierService extends CatalogService<Tier> {
  constructor(em: EntityManager) {
    super(em, {
      entity: Tier,
      label: 'Tier',
      localized: DESCRIBED,
      orderBy: { level: 'asc', createdAt: 'asc', id: 'asc' },
      unique: { field: 'level', message: (tier) => levelTakenMessage(tier.level) },
      announce: announceTier,
    });
  }

  /** The live tiers among `ids` (active or not), in the order asked; unknown or deleted ids are left out. */
  async byIds(ids: string[], locale?: Locale): Promise<Tier[]> {
    const tiers = await this.em.find(Tier, { id: { $in: recordIdsAmong([...new Set(ids)]) } });
    const byId = new Map(tiers.map((tier) => [tier.id, tier]));
    return [...new Set(ids)].flatMap((id) => (byId.has(id) ? [this.localize(byId.get(id)!, locale)] : []));
  }

  /** The live tier at `level` (active or not); 404 with `data.data.level`. */
  async byLevel(level: number, locale?: Locale): Promise<Tier> {
    const tier = await this.em.findOne(Tier, { level });
    if (!tier) throw new AppError('NOT_FOUND', 'Tier not found', [], { level });
    return this.localize(tier, locale);
  }

  async create(input: CreateTierInput): Promise<Tier> {
    const level = input.level ?? (await this.nextLevel());
    await this.assertLevelFree(level);
    const tier = this.em.create(Tier, {
      ...this.localizedValues({ ...input }),
      name_en: input.name_en,
      imageUrl: input.imageUrl ?? null,
      background: input.background ?? null,
      level,
      requirement: requirementOf(input.requirement),
      benefit: withLogos(benefitsOf(input.benefit ?? []), input.benefitLogoUrls),
      isActive: input.isActive ?? true,
      isSpecial: input.isSpecial ?? false,
    });
    await this.flush(tier);
    return tier;
  }

  async update(id: string, input: UpdateTierInput): Promise<Tier> {
    const tier = await this.live(id);
    this.assignLocalized(tier, { ...input });
    this.assignGiven(tier, input, ['imageUrl', 'background', 'isActive', 'isSpecial'] as const);
    if (input.level !== undefined && input.level !== tier.level) {
      await this.assertLevelFree(input.level);
      tier.level = input.level;
    }
    if (input.requirement !== undefined) tier.requirement = requirementOf(input.requirement);
    if (input.benefit !== undefined || input.benefitLogoUrls?.length) {
      tier.benefit = withLogos(input.benefit !== undefined ? benefitsOf(input.benefit) : tier.benefit, input.benefitLogoUrls);
    }
    await this.flush(tier);
    return tier;
  }

  /** A tier and its benefit items, projected to `locale`. */
  override localize(tier: Tier, locale?: Locale): Tier {
    if (!locale) return tier;
    const projected = super.localize(tier, locale);
    projected.benefit = tier.benefit.map((benefit) => projectLocale(benefit, BENEFIT_LOCALIZED, locale));
    return projected;
  }

  /** The tier's members, from the `tier_members` tally. */
  async memberCount(id: string): Promise<TierMemberCount> {
    await this.live(id);
    return { tierId: id, count: (await tallyByKey(this.em, 'cluster', TIER_MEMBERS, [id])).get(id)! };
  }

  /** Every live tier (inactive included), by level, with its member count (0 included). */
  async memberCounts(): Promise<TierMemberCount[]> {
    const tiers: Array<{ id: string }> = await this.em.execute('select id from cluster.tier where deleted_at is null order by level, created_at, id');
    const counts = await tallyByKey(this.em, 'cluster', TIER_MEMBERS, tiers.map((tier) => tier.id));
    return tiers.map((tier) => ({ tierId: tier.id, count: counts.get(tier.id)! }));
  }

  private async nextLevel(): Promise<number> {
    const [row] = await this.em.getConnection().execute<Array<{ next: number }>>('select coalesce(max(level) + 1, 0)::int as next from cluster.tier where deleted_at is null');
    return row.next;
  }

  /** Checked first for a clear answer; the partial unique index settles two writes racing for one level. */
  private async assertLevelFree(level: number): Promise<void> {
    if (await this.em.count(Tier, { level })) throw conflict(levelTakenMessage(level), 'level');
  }
}

/** Announces the tier as written (`tier.catalog_changed`), in the write's flush: auth keeps its tier catalog from it. */
function announceTier(em: EntityManager, tier: Tier): void {
  const { id: tierId, name_en, name_th, name_cn, level, isActive, isSpecial, createdAt, deletedAt } = tier;
  recordEvent(
    em,
    CLUSTER.events.tierCatalogChanged,
    { tierId, name_en, name_th, name_cn, level, isActive, isSpecial, createdAt: createdAt.toISOString(), deletedAt: deletedAt?.toISOString() ?? null },
    { aggregateId: tierId },
  );
}

const levelTakenMessage = (level: number) => `A live tier with level ${level} already exists`;

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
