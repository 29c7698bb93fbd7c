import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { fromUnits, toUnits } from '../../../core/decimal';
import { notFound, validationError } from '../../../core/errors';
import { Principal } from '../../../core/auth/principal';
import { KnownMembers } from '../../../core/known-members';
import { findPage, Page } from '../../../core/pagination';
import { EarningRule } from '../entities/earning-rule';
import { EarningRuleVersion } from '../entities/earning-rule-version';
import { PointSource } from '../entities/point-transaction';
import { RuleApplication } from '../entities/rule-application';
import { EarningRuleInput, EarningRuleListArgs, EarningRulePatch, EarningSimulation, EarningSimulationInput, RuleApplicationListArgs } from '../types/earning-rule.types';
import { bumpRuleBook } from './earning-rules/rule-book';
import { checkRuleDefinition, RuleDefinition, RuleDraft, Trigger } from './earning-rules/rule-definition';
import { RuleEarning } from './earning-rules/rule-earning';
import { priceByShopRule } from './purchase.service';

const RULE = 'EarningRule';

/** A definition as JSON with its keys sorted at every depth: two definitions are the same when these are. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The definition a rule has now. */
const definitionOf = (rule: EarningRule): RuleDefinition => ({
  name: rule.name,
  description: rule.description,
  trigger: rule.trigger,
  conditions: rule.conditions,
  effect: rule.effect,
  limits: rule.limits,
  priority: rule.priority,
  stacks: rule.stacks,
});

/** A draft's definition, or 400 with every bad field. */
function definitionFrom(draft: RuleDraft): RuleDefinition {
  const checked = checkRuleDefinition(draft);
  if ('errors' in checked) throw validationError(checked.errors);
  return checked.definition;
}

/**
 * Earning rules: written in versions (every change of the definition adds one, kept with who wrote it),
 * activated and deactivated, deleted softly; each write bumps the rule book in its own transaction, so
 * every process evaluates the new rules from its next purchase. Also the dry run and the audit of what
 * rules earned.
 */
export class EarningRuleService {
  constructor(
    private readonly em: EntityManager,
    private readonly earning: RuleEarning,
    private readonly members: KnownMembers,
  ) {}

  async list(args: EarningRuleListArgs): Promise<Page<EarningRule>> {
    const where: Record<string, unknown> = {};
    if (args.isActive !== undefined) where.isActive = args.isActive;
    if (args.trigger) where.trigger = args.trigger;
    return findPage(this.em, EarningRule, where, { createdAt: 'desc', id: 'desc' }, args, await this.em.count(EarningRule, where));
  }

  async get(id: string): Promise<EarningRule> {
    const rule = await this.em.findOne(EarningRule, { id });
    if (!rule) throw notFound(RULE, id);
    return rule;
  }

  /** A new rule, inactive, at version 1. */
  async create(input: EarningRuleInput, caller: Principal): Promise<EarningRule> {
    const definition = definitionFrom(input);
    return this.em.transactional(async (em) => {
      const rule = em.create(EarningRule, { ...definition });
      // The version refers to the rule: the rule's row first (the unit of work knows no relation between them).
      await em.flush();
      em.create(EarningRuleVersion, { ruleId: rule.id, version: 1, definition, createdBy: `${caller.kind}:${caller.id}` });
      await em.flush();
      await bumpRuleBook(em);
      return rule;
    });
  }

  /** The patch merged onto the current definition: a new version when that changes anything, else the rule as it is. */
  async update(id: string, patch: EarningRulePatch, caller: Principal): Promise<EarningRule> {
    return this.em.transactional(async (em) => {
      const rule = await this.locked(em, id);
      const current = definitionOf(rule);
      const merged = Object.fromEntries(Object.entries(current).map(([key, value]) => [key, patch[key as keyof EarningRulePatch] === undefined ? value : patch[key as keyof EarningRulePatch]]));
      const definition = definitionFrom(merged);
      if (canonical(definition) === canonical(current)) return rule;
      Object.assign(rule, definition, { version: rule.version + 1 });
      em.create(EarningRuleVersion, { ruleId: rule.id, version: rule.version, definition, createdBy: `${caller.kind}:${caller.id}` });
      await em.flush();
      await bumpRuleBook(em);
      return rule;
    });
  }

  /** Activates or deactivates a rule (its version stays). */
  async setActive(id: string, isActive: boolean): Promise<EarningRule> {
    return this.em.transactional(async (em) => {
      const rule = await this.locked(em, id);
      if (rule.isActive === isActive) return rule;
      rule.isActive = isActive;
      await em.flush();
      await bumpRuleBook(em);
      return rule;
    });
  }

  /** Deletes a rule softly: it stops applying; its versions and applications stay. */
  async softDelete(id: string): Promise<EarningRule> {
    return this.em.transactional(async (em) => {
      const rule = await this.locked(em, id);
      Object.assign(rule, { isActive: false, deletedAt: new Date() });
      await em.flush();
      await bumpRuleBook(em);
      return rule;
    });
  }

  /** Every version of a rule, the newest first. */
  versions(ruleId: string): Promise<EarningRuleVersion[]> {
    return this.em.find(EarningRuleVersion, { ruleId }, { orderBy: { version: 'desc' } });
  }

  /** Applications of rules, the newest first: why a member got which points. */
  async applications(args: RuleApplicationListArgs): Promise<Page<RuleApplication>> {
    const where: Record<string, unknown> = {};
    if (args.memberId) where.memberId = args.memberId;
    if (args.ruleId) where.ruleId = args.ruleId;
    if (args.sourceId) where.sourceId = args.sourceId;
    return findPage(this.em, RuleApplication, where, { createdAt: 'desc', id: 'desc' }, args, await this.em.count(RuleApplication, where));
  }

  /** What a purchase would earn now, by its shop rule and by the active earning rules, writing nothing. */
  async simulate(input: EarningSimulationInput, requestId?: string): Promise<EarningSimulation> {
    await this.members.assertExists(input.customerId, requestId);
    const amount = input.amount.toFixed(2);
    const storeId = input.storeId ?? null;
    const base = await priceByShopRule(this.em, amount, storeId);
    const evaluation = await this.earning.simulate(this.em, {
      type: 'purchase',
      id: 'simulation',
      memberId: input.customerId,
      facts: { trigger: input.trigger as Trigger, occurredAt: input.occurredAt ? new Date(input.occurredAt) : new Date(), amount, storeId, category: input.category ?? null, basePoints: base.points },
      sourceBy: PointSource.Purchase,
    });
    const total = evaluation.applied.reduce((sum, outcome) => sum + toUnits(outcome.points, 2)!, toUnits(base.points, 2)!);
    return { basePoints: base.points, points: fromUnits(total, 2), ...evaluation };
  }

  private async locked(em: EntityManager, id: string): Promise<EarningRule> {
    const rule = await em.findOne(EarningRule, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!rule) throw notFound(RULE, id);
    return rule;
  }
}
