import { EntityManager } from '@mikro-orm/postgresql';
import { RuleDefinition } from './rule-definition';
import { RuleVersion } from './rule-evaluation';

interface ActiveRuleRow {
  book: string;
  id: string | null;
  version: number;
  created_at: Date;
  name: string;
  description: string | null;
  trigger: RuleDefinition['trigger'];
  conditions: RuleDefinition['conditions'];
  effect: RuleDefinition['effect'];
  limits: RuleDefinition['limits'];
  priority: number;
  stacks: boolean;
  pending_days: number | null;
}

/**
 * The active earning rules, kept by each process and checked against the rule book's version in the
 * caller's transaction: every write of a rule bumps that version in its own transaction, so a change
 * committed by any process is seen by the next evaluation anywhere (one single-row read while nothing
 * changed, the rules read again once it did).
 */
export class RuleBook {
  private kept?: { version: string; rules: RuleVersion[] };

  /** The active rules (their current versions), as the caller's transaction sees the book. */
  async active(em: EntityManager): Promise<RuleVersion[]> {
    const [{ version }]: Array<{ version: string }> = await em.execute(`select version::text as version from point.earning_rule_book`);
    if (this.kept?.version === version) return this.kept.rules;
    const rows: ActiveRuleRow[] = await em.execute(
      `select b.version::text as book, r.id, r.version, r.created_at, r.name, r.description, r.trigger, r.conditions, r.effect, r.limits, r.priority, r.stacks, r.pending_days
         from point.earning_rule_book b
         left join point.earning_rule r on r.is_active and r.deleted_at is null`,
    );
    const rules = rows
      .filter((row): row is ActiveRuleRow & { id: string } => row.id !== null)
      .map((row) => ({
        ruleId: row.id,
        version: row.version,
        createdAt: new Date(row.created_at),
        definition: {
          name: row.name,
          description: row.description,
          trigger: row.trigger,
          conditions: row.conditions,
          effect: row.effect,
          limits: row.limits,
          priority: row.priority,
          stacks: row.stacks,
          pendingDays: row.pending_days,
        },
      }));
    // Kept under the version read with them: a change committed between the two reads only costs a reload.
    this.kept = { version: rows[0].book, rules };
    return rules;
  }
}

/** Marks the book changed, in the transaction of a rule's write: every process reloads its rules at its next evaluation. */
export async function bumpRuleBook(em: EntityManager): Promise<void> {
  await em.execute(`update point.earning_rule_book set version = version + 1`);
}
