import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { badRequest, conflict, notFound, notFoundNamed } from '../../../core/errors';
import { Locale, projectLocale } from '../../../core/i18n';
import { offsetOf, Page, pageOf } from '../../../core/pagination';
import { containsAny } from '../../../core/search';
import { PointShopRule, SHOP_RULE_LOCALIZED } from '../entities/point-shop-rule';
import { CreatePointShopRuleInput, PointShopRuleListArgs, UpdatePointShopRuleInput } from '../types/shop-rule.types';

const RULE = 'Point shop rule';
/** Rates arrive validated to at most 4 decimals, so fixing them to 4 decimals is exact. */
const rate = (value: number) => value.toFixed(4);

/** Shop point rules: the default rule and one live rule per shop. Soft-deleted rules are hidden. */
export class ShopRuleService {
  constructor(private readonly em: EntityManager) {}

  /** The default rule first, then the newest. */
  async list(args: PointShopRuleListArgs, locale?: Locale): Promise<Page<PointShopRule>> {
    const where: Record<string, unknown> = { deletedAt: null };
    if (args.search) Object.assign(where, containsAny(['name_en', 'name_th', 'name_cn'], args.search));
    const [items, total] = await this.em.findAndCount(PointShopRule, where, {
      orderBy: { isFixed: 'desc', createdAt: 'desc', id: 'asc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
    return pageOf(
      items.map((rule) => localized(rule, locale)),
      total,
      args,
    );
  }

  async defaultRule(locale?: Locale): Promise<PointShopRule> {
    const rule = await this.em.findOne(PointShopRule, { isFixed: true, deletedAt: null });
    if (!rule) throw notFoundNamed('Default point shop rule');
    return localized(rule, locale);
  }

  async get(id: string, locale?: Locale): Promise<PointShopRule> {
    return localized(await this.live(id), locale);
  }

  async create(input: CreatePointShopRuleInput): Promise<PointShopRule> {
    await this.assertShopFree(input.shopId);
    const rule = this.em.create(PointShopRule, {
      shopId: input.shopId,
      name_en: input.name_en,
      name_th: input.name_th ?? null,
      name_cn: input.name_cn ?? null,
      description_en: input.description_en ?? null,
      description_th: input.description_th ?? null,
      description_cn: input.description_cn ?? null,
      conversionRate: rate(input.conversionRate),
      isActive: input.isActive ?? true,
    });
    await this.flushOrConflict(input.shopId);
    return rule;
  }

  async update(id: string, input: UpdatePointShopRuleInput): Promise<PointShopRule> {
    const rule = await this.live(id);
    if (input.isFixed !== undefined && input.isFixed !== rule.isFixed) {
      throw badRequest(rule.isFixed ? 'The default rule stays fixed' : 'Only the default rule is fixed', 'isFixed');
    }
    if (input.shopId !== undefined && input.shopId !== rule.shopId) {
      if (rule.isFixed) throw badRequest('The default rule applies to every shop without a rule: it takes no shopId', 'shopId');
      await this.assertShopFree(input.shopId);
      rule.shopId = input.shopId;
    }
    if (input.name_en !== undefined) rule.name_en = input.name_en;
    if (input.conversionRate !== undefined) rule.conversionRate = rate(input.conversionRate);
    if (input.isActive !== undefined) rule.isActive = input.isActive;
    for (const field of ['name_th', 'name_cn', 'description_en', 'description_th', 'description_cn'] as const) {
      if (input[field] !== undefined) rule[field] = input[field] ?? null;
    }
    await this.flushOrConflict(rule.shopId);
    return rule;
  }

  /** Soft-deletes a shop rule; the default rule cannot be deleted (400). */
  async softDelete(id: string): Promise<PointShopRule> {
    const rule = await this.live(id);
    if (rule.isFixed) throw badRequest('The default rule cannot be deleted', 'id');
    rule.deletedAt = new Date();
    await this.em.flush();
    return rule;
  }

  /**
   * The rule that prices a receipt: the given rule (live and active, else 400 on pointRuleId), else
   * the shop's live active rule, else the default rule (400 when it is inactive).
   */
  async ruleFor(em: EntityManager, pointRuleId?: string | null, shopId?: string | null): Promise<PointShopRule> {
    if (pointRuleId) {
      const rule = await em.findOne(PointShopRule, { id: pointRuleId, deletedAt: null, isActive: true });
      if (!rule) throw badRequest('No active point shop rule has this id', 'pointRuleId');
      return rule;
    }
    if (shopId) {
      const rule = await em.findOne(PointShopRule, { shopId, deletedAt: null, isActive: true });
      if (rule) return rule;
    }
    const fallback = await em.findOne(PointShopRule, { isFixed: true, deletedAt: null, isActive: true });
    if (!fallback) throw badRequest('No active point shop rule applies: the shop has none and the default rule is inactive', 'pointRuleId');
    return fallback;
  }

  private async live(id: string): Promise<PointShopRule> {
    const rule = await this.em.findOne(PointShopRule, { id, deletedAt: null });
    if (!rule) throw notFound(RULE, id);
    return rule;
  }

  private async assertShopFree(shopId: string): Promise<void> {
    if (await this.em.count(PointShopRule, { shopId, deletedAt: null })) throw shopTaken(shopId);
  }

  /** The unique index settles two creates racing for one shop. */
  private async flushOrConflict(shopId: string | null): Promise<void> {
    try {
      await this.em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw shopTaken(shopId ?? '');
      throw error;
    }
  }
}

const shopTaken = (shopId: string) => conflict(`A live point shop rule for shop ${shopId} already exists`, 'shopId');

/** Localized copy of a rule for the `locale` projection. */
export const localized = (rule: PointShopRule, locale?: Locale) => projectLocale(rule, SHOP_RULE_LOCALIZED, locale);
