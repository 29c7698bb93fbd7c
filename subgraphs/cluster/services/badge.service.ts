import { EntityManager } from '@mikro-orm/postgresql';
import { DESCRIBED } from '../../../core/catalog/catalog-entity';
import { CatalogService } from '../../../core/catalog/catalog.service';
import { badRequest } from '../../../core/errors';
import { Page } from '../../../core/pagination';
import { Badge, BadgeMemberProgress, BadgeRule, BadgeRuleType } from '../entities/badge';
import { BadgeProgressArgs, BadgeRuleInput, CreateBadgeInput, UpdateBadgeInput } from '../types/badge.types';

/** Badges: localized CRUD with soft delete; members' progress is read here and written by badge-progress.ts. */
export class BadgeService extends CatalogService<Badge> {
  constructor(em: EntityManager) {
    super(em, { entity: Badge, label: 'Badge', localized: DESCRIBED, orderBy: { createdAt: 'desc', id: 'asc' } });
  }

  async create(input: CreateBadgeInput): Promise<Badge> {
    const badge = this.em.create(Badge, {
      ...this.localizedValues({ ...input }),
      name_en: input.name_en,
      imageUrl: input.imageUrl ?? null,
      rule: ruleOf(input.rule),
      isActive: input.isActive ?? true,
    });
    await this.em.flush();
    return badge;
  }

  async update(id: string, input: UpdateBadgeInput): Promise<Badge> {
    const badge = await this.live(id);
    this.assignLocalized(badge, { ...input });
    this.assignGiven(badge, input, ['imageUrl', 'isActive'] as const);
    if (input.rule !== undefined) badge.rule = ruleOf(input.rule);
    await this.em.flush();
    return badge;
  }

  /** Members with a progress row for the badge (any value). */
  async memberCount(badgeId: string): Promise<number> {
    const [row] = await this.em.execute(`select count(*)::int as count from cluster.badge_member_progress where badge_id = ?`, [badgeId]);
    return row.count;
  }

  /** Members who completed the badge. */
  async totalAchievers(badgeId: string): Promise<number> {
    const [row] = await this.em.execute(`select count(*)::int as count from cluster.badge_member_progress where badge_id = ? and is_completed`, [badgeId]);
    return row.count;
  }

  /** A member's progress rows, newest first; `page` is zero-based and `limit` 0 gives only the total. */
  async progress(memberId: string, args: BadgeProgressArgs): Promise<Page<BadgeMemberProgress>> {
    const where: Record<string, unknown> = { memberId };
    if (args.badgeId) where.badgeId = args.badgeId;
    if (args.isCompleted !== undefined && args.isCompleted !== null) where.isCompleted = args.isCompleted;
    const total = await this.em.count(BadgeMemberProgress, where);
    const items =
      args.limit === 0
        ? []
        : await this.em.find(BadgeMemberProgress, where, { orderBy: { createdAt: 'desc', id: 'asc' }, limit: args.limit, offset: args.page * args.limit });
    return { meta: { page: args.page, limit: args.limit, total, totalPages: args.limit === 0 ? 0 : Math.ceil(total / args.limit) }, data: items };
  }

}

const RULE_FIELDS = [
  'purchaseAmount',
  'purchaseCount',
  'pointsAmount',
  'minSpend',
  'withinDays',
  'anniversaryYear',
  'categoryIdsIncluded',
  'categoryIdsExcluded',
  'shopIdsIncluded',
  'shopIdsExcluded',
] as const;

/** Checks that the rule has the goal its type needs (400 on `rule.<field>`) and stores the given fields only. */
export function ruleOf(input: BadgeRuleInput): BadgeRule {
  const need = (field: 'purchaseAmount' | 'purchaseCount') => {
    if (input[field] === undefined || input[field] === null) throw badRequest(`${field} is required for a ${input.type} rule`, `rule.${field}`);
  };
  switch (input.type) {
    case BadgeRuleType.totalPurchaseAmount:
    case BadgeRuleType.shopPurchaseAmount:
      need('purchaseAmount');
      if (!(Number(input.purchaseAmount) > 0)) throw badRequest('purchaseAmount must be above 0', 'rule.purchaseAmount');
      break;
    case BadgeRuleType.purchaseCount:
      need('purchaseCount');
      break;
    case BadgeRuleType.categoryPurchase:
      if (input.purchaseCount == null && input.purchaseAmount == null) throw badRequest('purchaseCount or purchaseAmount is required for a categoryPurchase rule', 'rule.purchaseCount');
      if (input.purchaseCount == null && !(Number(input.purchaseAmount) > 0)) throw badRequest('purchaseAmount must be above 0', 'rule.purchaseAmount');
      break;
    case BadgeRuleType.specialDay:
      if (!input.window?.start || !input.window?.end) throw badRequest('window {start, end} is required for a specialDay rule', 'rule.window');
      break;
    case BadgeRuleType.firstTime:
      break;
  }
  const rule: BadgeRule = { type: input.type };
  for (const field of RULE_FIELDS) {
    if (input[field] !== undefined && input[field] !== null) (rule as unknown as Record<string, unknown>)[field] = input[field];
  }
  if (input.window && (input.window.start || input.window.end)) {
    const start = input.window.start ? new Date(input.window.start) : null;
    const end = input.window.end ? new Date(input.window.end) : null;
    if (start && end && start > end) throw badRequest('window.start must not be after window.end', 'rule.window.start');
    rule.window = { start: start?.toISOString() ?? null, end: end?.toISOString() ?? null };
  }
  if (input.tierCondition) rule.tierCondition = { type: input.tierCondition.type, tierIds: [...new Set(input.tierCondition.tierIds)] };
  return rule;
}

/** The value that completes a badge: an amount or a count (1 for firstTime and specialDay). */
export function goalOf(rule: BadgeRule): number {
  switch (rule.type) {
    case BadgeRuleType.totalPurchaseAmount:
    case BadgeRuleType.shopPurchaseAmount:
      return Number(rule.purchaseAmount);
    case BadgeRuleType.purchaseCount:
      return Number(rule.purchaseCount);
    case BadgeRuleType.categoryPurchase:
      return rule.purchaseCount != null ? Number(rule.purchaseCount) : Number(rule.purchaseAmount);
    case BadgeRuleType.firstTime:
    case BadgeRuleType.specialDay:
      return 1;
  }
}

/** Whether the rule counts purchases (1 each) rather than summing their amounts. */
export function countsPurchases(rule: BadgeRule): boolean {
  return rule.type !== BadgeRuleType.totalPurchaseAmount && rule.type !== BadgeRuleType.shopPurchaseAmount && !(rule.type === BadgeRuleType.categoryPurchase && rule.purchaseCount == null);
}
