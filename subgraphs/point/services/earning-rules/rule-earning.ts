import { EntityManager } from '@mikro-orm/postgresql';
import { timeOrderedId } from '../../../../core/ids';
import { toUnits } from '../../../../core/decimal';
import { PointSource } from '../../entities/point-transaction';
import { LedgerService } from '../ledger.service';
import { MemberFacts } from '../member-facts';
import { Period, PERIODS } from './rule-definition';
import { RuleBook } from './rule-book';
import { evaluate, Evaluation, Facts, factsTested, holds, MemberUsage, periodEnd, periodStart, RuleOutcome, RuleVersion } from './rule-evaluation';

/** What earns by rules: a purchase (or an approved receipt), a custom event, another domain's event; its member, and the facts it brings. */
export interface EarningSource {
  type: 'purchase' | 'receipt' | 'custom_event' | 'booking' | 'customer' | 'referral';
  id: string;
  memberId: string;
  /** The trigger's facts: when it happened, and a purchase's amount, store, category and base earn. */
  facts: Facts;
  /** The source's own ledger entry (its base earn), which does not make a purchase not the first in its category. */
  baseEntryId?: string;
  sourceBy: PointSource | null;
}

/** The rules of a source's trigger and the member facts they test that come from elsewhere (segments), gathered before the member's lock. */
export interface PreparedEarning {
  source: EarningSource;
  rules: RuleVersion[];
}

/** An applied rule with the ledger entry it wrote, or the hold of its points when they are pending. */
export interface RuleEarned extends RuleOutcome {
  ledgerEntryId: string | null;
  pendingId: string | null;
}

const DAY_MS = 86_400_000;
/** When points held `days` from `start` become spendable. */
export const daysAfter = (start: Date, days: number): Date => new Date(start.getTime() + days * DAY_MS);

const SCALE = 100n;

/**
 * Earning rules on the write path: evaluated against what happened in the transaction that records it,
 * one ledger entry per applied rule and an application row naming the rule version, all or none; and the
 * same evaluation without writing (`simulate`). Limits are read under the member's balance lock (so the
 * member's concurrent sources count one after another) and budgets under their rule's row lock (taken in
 * rule id order, after the member's).
 */
export class RuleEarning {
  constructor(
    private readonly book: RuleBook,
    private readonly memberFacts: MemberFacts,
    private readonly ledger: LedgerService,
    /** POINT_PENDING_DAYS: how long a v1 purchase's points are held, its rules' unless a rule sets its own. */
    private readonly purchasePendingDays: number,
  ) {}

  /** How long a source's points are held: a purchase's by the program default, a rule's by its own period unless it has none. */
  pendingDaysOf(source: EarningSource, rule?: RuleVersion): number {
    return rule?.definition.pendingDays ?? (source.type === 'purchase' ? this.purchasePendingDays : 0);
  }

  /** Before the member's lock: the trigger's active rules, and the member's facts they test (a segment lookup is a call to the cluster). */
  async prepare(em: EntityManager, source: EarningSource): Promise<PreparedEarning> {
    const rules = (await this.book.active(em)).filter((rule) => rule.definition.trigger === source.facts.trigger);
    if (rules.length === 0) return { source, rules };
    const tested = factsTested(rules);
    const facts = { ...source.facts };
    if (tested.has('tier') || tested.has('birthday_month')) Object.assign(facts, await this.memberFacts.profile(em, source.memberId));
    if (tested.has('segments')) facts.segmentIds = await this.memberFacts.segmentIds(source.memberId);
    return { source: { ...source, facts }, rules };
  }

  /** Under the member's balance lock (the caller's base earn took it): evaluates, writes the entries and applications. */
  async apply(em: EntityManager, prepared: PreparedEarning): Promise<RuleEarned[]> {
    const { applied } = await this.evaluateNow(em, prepared, true);
    const { source } = prepared;
    const earned: RuleEarned[] = [];
    for (const outcome of applied) {
      const movement = {
        memberId: source.memberId,
        amount: outcome.points,
        shopId: source.facts.storeId ?? null,
        categoryId: source.facts.category ?? null,
        note: `Earning rule "${outcome.name}" (version ${outcome.version})`,
        sourceBy: source.sourceBy,
        referenceId: source.id,
        metadata: { earningRuleId: outcome.ruleId, earningRuleVersion: outcome.version },
      };
      const days = this.pendingDaysOf(source, prepared.rules.find((rule) => rule.ruleId === outcome.ruleId));
      if (days > 0) {
        const pendingId = await this.ledger.hold(em, { ...movement, activatesAt: daysAfter(source.facts.occurredAt, days), sourceType: source.type, sourceId: source.id });
        earned.push({ ...outcome, ledgerEntryId: null, pendingId });
      } else {
        earned.push({ ...outcome, ledgerEntryId: (await this.ledger.earn(em, movement)).id, pendingId: null });
      }
    }
    if (earned.length === 0) return earned;
    await em.execute(
      // A microsecond apart, in evaluation order, so that a source's applications list in the order the rules applied.
      `insert into point.rule_application (id, rule_id, rule_version, member_id, source_type, source_id, points, ledger_entry_id, pending_id, occurred_at, created_at)
       select a.id, a.rule_id, a.rule_version, ?::uuid, ?, ?, a.points, a.ledger_entry_id, a.pending_id, ?::timestamptz, now() + a.ord * interval '1 microsecond'
         from jsonb_to_recordset(?::jsonb) as a(ord int, id uuid, rule_id uuid, rule_version int, points numeric, ledger_entry_id uuid, pending_id uuid)`,
      [
        source.memberId,
        source.type,
        source.id,
        source.facts.occurredAt,
        JSON.stringify(earned.map((rule, ord) => ({ ord, id: timeOrderedId(), rule_id: rule.ruleId, rule_version: rule.version, points: rule.points, ledger_entry_id: rule.ledgerEntryId, pending_id: rule.pendingId }))),
      ],
    );
    const budgeted = earned.filter((rule) => prepared.rules.find((candidate) => candidate.ruleId === rule.ruleId)?.definition.limits.budget !== undefined);
    if (budgeted.length > 0) {
      await em.execute(
        `update point.earning_rule r set budget_used = r.budget_used + u.points
           from jsonb_to_recordset(?::jsonb) as u(id uuid, points numeric) where r.id = u.id`,
        [JSON.stringify(budgeted.map((rule) => ({ id: rule.ruleId, points: rule.points })))],
      );
    }
    return earned;
  }

  /**
   * Evaluates a source that earns nothing of its own (a custom event, another domain's event): the rules
   * of its trigger, under the member's balance lock, taken here only when there are rules to apply.
   */
  async applyAlone(em: EntityManager, source: EarningSource): Promise<RuleEarned[]> {
    const prepared = await this.prepare(em, source);
    if (prepared.rules.length === 0) return [];
    await this.ledger.lock(em, source.memberId);
    return this.apply(em, prepared);
  }

  /** What the rules would earn for a source now, writing nothing. */
  async simulate(em: EntityManager, source: EarningSource): Promise<Evaluation> {
    return this.evaluateNow(em, await this.prepare(em, source), false);
  }

  /** The evaluation with what only the database knows now: first in category, usage of limits, budgets left (locked when `locking`). */
  private async evaluateNow(em: EntityManager, { source, rules }: PreparedEarning, locking: boolean): Promise<Evaluation> {
    if (rules.length === 0) return { applied: [], skipped: [] };
    const facts = { ...source.facts };
    if (factsTested(rules).has('first_in_category')) facts.firstInCategory = await this.firstInCategory(em, source);
    const matched = rules.filter((rule) => holds(rule.definition.conditions, facts));
    if (matched.length === 0) return { applied: [], skipped: [] };
    const usage = await this.usage(em, source, matched);
    const budgets = await this.budgetsLeft(em, matched, locking);
    return evaluate(
      matched.map((rule) => (budgets.has(rule.ruleId) ? { ...rule, budgetLeft: budgets.get(rule.ruleId) } : rule)),
      facts,
      usage,
    );
  }

  /** Whether the member has no earlier purchase in the source's category (its own base entry or hold aside), earned or held. */
  private async firstInCategory(em: EntityManager, source: EarningSource): Promise<boolean> {
    if (!source.facts.category) return false;
    const [row]: Array<{ first: boolean }> = await em.execute(
      `select not exists (select 1 from point.point_transaction
                           where member_id = ? and category_id = ? and action_type = 'EARN' and source_by = 'Purchase' and purchase_amount > 0
                             and (?::uuid is null or id <> ?::uuid))
          and not exists (select 1 from point.pending_points
                           where member_id = ? and category_id = ? and status <> 'cancelled' and source_by = 'Purchase' and purchase_amount > 0
                             and not (source_type = ? and source_id = ?)) as first`,
      [source.memberId, source.facts.category, source.baseEntryId ?? null, source.baseEntryId ?? null, source.memberId, source.facts.category, source.type, source.id],
    );
    return row.first;
  }

  /** Per matched rule with member limits: its applications to the member and their points in each period around the source. */
  private async usage(em: EntityManager, source: EarningSource, matched: RuleVersion[]): Promise<Map<string, MemberUsage>> {
    const limited = matched.filter((rule) => (rule.definition.limits.member ?? []).length > 0);
    if (limited.length === 0) return new Map();
    const at = source.facts.occurredAt;
    const params: unknown[] = [];
    const within = (period: Period) => {
      const start = periodStart(period, at);
      if (!start) return 'true';
      params.push(start, periodEnd(period, at));
      return 'occurred_at >= ? and occurred_at < ?';
    };
    const columns = PERIODS.map(
      (period) => `count(*) filter (where ${within(period)})::int as ${period}_count, coalesce(sum(points) filter (where ${within(period)}), 0)::text as ${period}_points`,
    );
    const rows: Array<Record<string, string | number>> = await em.execute(
      `select rule_id::text as rule_id, ${columns.join(', ')} from point.rule_application where member_id = ? and rule_id in (?) group by rule_id`,
      [...params, source.memberId, limited.map((rule) => rule.ruleId)],
    );
    return new Map(
      rows.map((row) => [
        row.rule_id as string,
        Object.fromEntries(PERIODS.map((period: Period) => [period, { count: Number(row[`${period}_count`]), points: toUnits(row[`${period}_points`], 2)! / SCALE }])),
      ]),
    );
  }

  /** Points left in the budgets of matched rules that have one; a write locks their rows, in id order. */
  private async budgetsLeft(em: EntityManager, matched: RuleVersion[], locking: boolean): Promise<Map<string, bigint>> {
    const budgeted = matched.filter((rule) => rule.definition.limits.budget !== undefined).map((rule) => rule.ruleId).sort();
    if (budgeted.length === 0) return new Map();
    const rows: Array<{ id: string; left: string }> = await em.execute(
      `select id::text as id, greatest((limits->>'budget')::numeric - budget_used, 0)::numeric(20, 2)::text as left
         from point.earning_rule where id in (?) order by id ${locking ? 'for update' : ''}`,
      [budgeted],
    );
    return new Map(rows.map((row) => [row.id, toUnits(row.left, 2)! / SCALE]));
  }
}
