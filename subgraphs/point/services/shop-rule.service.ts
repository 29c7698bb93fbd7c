import { EntityManager } from '@mikro-orm/postgresql';
import { DESCRIBED } from '../../../core/catalog/catalog-entity';
import { CatalogService } from '../../../core/catalog/catalog.service';
import { badRequest, conflict, notFoundNamed } from '../../../core/errors';
import { Locale } from '../../../core/i18n';
import { PointShopRule } from '../entities/point-shop-rule';
import { CreatePointShopRuleInput, UpdatePointShopRuleInput } from '../types/shop-rule.types';

/** Rates arrive validated to at most 4 decimals, so fixing them to 4 decimals is exact. */
const rate = (value: number) => value.toFixed(4);

/** Shop point rules: the default rule and one live rule per shop. Soft-deleted rules are hidden. */
export class ShopRuleService extends CatalogService<PointShopRule> {
  constructor(em: EntityManager) {
    super(em, {
      entity: PointShopRule,
      label: 'Point shop rule',
      localized: DESCRIBED,
      // The default rule first, then the newest.
      orderBy: { isFixed: 'desc', createdAt: 'desc', id: 'asc' },
      unique: { field: 'shopId', message: (rule) => shopTakenMessage(rule.shopId ?? '') },
    });
  }

  async defaultRule(locale?: Locale): Promise<PointShopRule> {
    const rule = await this.em.findOne(PointShopRule, { isFixed: true });
    if (!rule) throw notFoundNamed('Default point shop rule');
    return this.localize(rule, locale);
  }

  async create(input: CreatePointShopRuleInput): Promise<PointShopRule> {
    await this.assertShopFree(input.shopId);
    const rule = this.em.create(PointShopRule, {
      ...this.localizedValues({ ...input }),
      name_en: input.name_en,
      shopId: input.shopId,
      conversionRate: rate(input.conversionRate),
      isActive: input.isActive ?? true,
    });
    await this.flush(rule);
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
    this.assignLocalized(rule, { ...input });
    if (input.conversionRate !== undefined) rule.conversionRate = rate(input.conversionRate);
    if (input.isActive !== undefined) rule.isActive = input.isActive;
    await this.flush(rule);
    return rule;
  }

  /** Soft-deletes a shop rule; the default rule cannot be deleted (400). */
  override async softDelete(id: string): Promise<PointShopRule> {
    if ((await this.live(id)).isFixed) throw badRequest('The default rule cannot be deleted', 'id');
    return super.softDelete(id);
  }

  /**
   * The rule that prices a receipt: the given rule (live and active, else 400 on pointRuleId), else
   * the shop's live active rule, else the default rule (400 when it is inactive).
   */
  async ruleFor(em: EntityManager, pointRuleId?: string | null, shopId?: string | null): Promise<PointShopRule> {
    if (pointRuleId) {
      const rule = await em.findOne(PointShopRule, { id: pointRuleId, isActive: true });
      if (!rule) throw badRequest('No active point shop rule has this id', 'pointRuleId');
      return rule;
    }
    if (shopId) {
      const rule = await em.findOne(PointShopRule, { shopId, isActive: true });
      if (rule) return rule;
    }
    const fallback = await em.findOne(PointShopRule, { isFixed: true, isActive: true });
    if (!fallback) throw badRequest('No active point shop rule applies: the shop has none and the default rule is inactive', 'pointRuleId');
    return fallback;
  }

  /** Checked first for a clear answer; the unique index settles two creates racing for one shop. */
  private async assertShopFree(shopId: string): Promise<void> {
    if (await this.em.count(PointShopRule, { shopId })) throw conflict(shopTakenMessage(shopId), 'shopId');
  }
}

const shopTakenMessage = (shopId: string) => `A live point shop rule for shop ${shopId} already exists`;
