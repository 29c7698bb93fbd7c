import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
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
import { checkRuleDefinition, CUSTOM_EVENT, eventTypeOf, FIXED_TRIGGERS, RuleDefinition, RuleDraft, Trigger } from './earning-rules/rule-definition';
import { checkAttributeValues } from './earning-rules/event-attributes';
import { ruleContext } from './earning-rules/rule-context';
import { RuleEarning } from './earning-rules/rule-earning';
import { pointsInAll, priceByShopRule } from './purchase.service';

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
  pendingDays: rule.pendingDays,
});

/** A draft's definition, or 400 with every bad field; the custom event type it names is share-locked until the caller's transaction ends. */
async function definitionFrom(em: EntityManager, draft: RuleDraft): Promise<RuleDefinition> {
  const context = await ruleContext(em, typeof draft.trigger === 'string' ? eventTypeOf(draft.trigger) : undefined);
  const checked = checkRuleDefinition(draft, context);
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
    return this.em.transactional(async (em) => {
      const definition = await definitionFrom(em, input);
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
      const definition = await definitionFrom(em, merged);
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

  /** The applications of one source (a custom event), in the order they were written. */
  applicationsOf(sourceType: string, sourceId: string): Promise<RuleApplication[]> {
    return this.em.find(RuleApplication, { sourceType, sourceId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  /**
   * What a source would earn now, writing nothing: a purchase by its shop rule (the base) and the active
   * rules of `purchase`; a custom event or another domain's event by the active rules of its trigger.
   */
  async simulate(input: EarningSimulationInput, requestId?: string): Promise<EarningSimulation> {
    const trigger = await this.simulatedTrigger(input);
    await this.members.assertExists(input.customerId, requestId);
    const occurredAt = input.occurredAt ? new Date(input.occurredAt) : new Date();
    const source = { type: 'purchase' as const, id: 'simulation', memberId: input.customerId, sourceBy: trigger === 'purchase' ? PointSource.Purchase : null };
    if (trigger !== 'purchase') {
      const facts = { trigger, occurredAt, attributes: (await this.simulatedAttributes(trigger, input)) ?? undefined, referralRole: input.referralRole ?? undefined };
      const evaluation = await this.earning.simulate(this.em, { ...source, facts });
      return { basePoints: '0.00', points: pointsInAll('0', evaluation.applied), ...evaluation };
    }
    const amount = input.amount!.toFixed(2);
    const storeId = input.storeId ?? null;
    const base = await priceByShopRule(this.em, amount, storeId);
    const evaluation = await this.earning.simulate(this.em, { ...source, facts: { trigger, occurredAt, amount, storeId, category: input.category ?? null, basePoints: base.points } });
    return { basePoints: base.points, points: pointsInAll(base.points, evaluation.applied), ...evaluation };
  }

  /** The trigger of a dry run: a fixed one or a declared custom event type's; a purchase needs its amount. */
  private async simulatedTrigger(input: EarningSimulationInput): Promise<Trigger> {
    const context = await ruleContext(this.em);
    const eventType = eventTypeOf(input.trigger);
    const known = eventType !== undefined ? context.eventTypes.has(eventType) : (FIXED_TRIGGERS as readonly string[]).includes(input.trigger);
    if (!known) throw validationError([{ field: 'trigger', message: `trigger must be one of ${FIXED_TRIGGERS.join(', ')}, or ${CUSTOM_EVENT}<a declared type>` }]);
    if (input.trigger === 'purchase' && input.amount == null) throw validationError([{ field: 'amount', message: 'amount is required for a purchase' }]);
    if (input.trigger === 'referral.completed' && input.referralRole == null) throw validationError([{ field: 'referralRole', message: 'referralRole is required for a referral completion' }]);
    return input.trigger as Trigger;
  }

  /** A simulated custom event's attributes, checked against its type as a real one's. */
  private async simulatedAttributes(trigger: Trigger, input: EarningSimulationInput): Promise<Record<string, string | number | boolean> | null> {
    const eventType = eventTypeOf(trigger);
    if (eventType === undefined) return null;
    const { eventTypes } = await ruleContext(this.em);
    const checked = checkAttributeValues(eventTypes.get(eventType)!, input.attributes);
    if ('errors' in checked) throw validationError(checked.errors);
    return checked.values;
  }

  private async locked(em: EntityManager, id: string): Promise<EarningRule> {
    const rule = await em.findOne(EarningRule, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!rule) throw notFound(RULE, id);
    return rule;
  }
}
