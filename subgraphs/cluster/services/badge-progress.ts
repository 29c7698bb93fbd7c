import { EntityManager } from '@mikro-orm/postgresql';
import { PublishedEvent, recordEvent } from '../../../core/events/outbox-event';
import { BadgeRule, BadgeRuleType, BadgeTierConditionType } from '../entities/badge';
import type { PointLedgerEntry } from '../../point/contract';
import { CLUSTER } from '../contract';
import { countsPurchases, goalOf } from './badge.service';

interface LiveBadge {
  id: string;
  rule: BadgeRule;
}

interface ProgressRow {
  id: string;
  current_value: string;
  is_completed: boolean;
  first_event_at: Date | null;
}

const DAY_MS = 24 * 3600 * 1000;
/** Compares two decimals given with at most 2 places, exactly (in cents). */
const cents = (value: string | number) => Math.round(Number(value) * 100);

/** Whether one purchase counts for a rule, before withinDays (which needs the member's progress). */
export function eventCounts(rule: BadgeRule, purchase: number, at: Date, data: PointLedgerEntry, tierId: string | null): boolean {
  if (!(purchase > 0)) return false;
  if (rule.minSpend != null && cents(purchase) < cents(rule.minSpend)) return false;
  if (rule.window?.start && at < new Date(rule.window.start)) return false;
  if (rule.window?.end && at > new Date(rule.window.end)) return false;
  if (rule.tierCondition) {
    const listed = tierId !== null && rule.tierCondition.tierIds.includes(tierId);
    if (rule.tierCondition.type === BadgeTierConditionType.include ? !listed : listed) return false;
  }
  if (rule.type === BadgeRuleType.categoryPurchase && !matches(data.categoryId, rule.categoryIdsIncluded, rule.categoryIdsExcluded)) return false;
  if (rule.type === BadgeRuleType.shopPurchaseAmount && !matches(data.shopId, rule.shopIdsIncluded, rule.shopIdsExcluded)) return false;
  return true;
}

/** An empty or absent include list takes any id (also none); an excluded id never counts. */
function matches(id: string | null | undefined, included?: string[] | null, excluded?: string[] | null): boolean {
  if (included?.length && (!id || !included.includes(id))) return false;
  if (id && excluded?.includes(id)) return false;
  return true;
}

/**
 * Applies one point event to every live, active badge, in the caller's transaction (the event consumer
 * applies each event once), under the lock of each progress row it changes. A completed progress is
 * never changed again; completing writes `badge.completed` to the outbox.
 */
export async function applyBadgeEvent(em: EntityManager, event: PublishedEvent<PointLedgerEntry>): Promise<void> {
  const { memberId } = event.data;
  const purchase = Number(event.data.purchaseAmount ?? 0);
  if (!memberId || !(purchase > 0)) return;
  const at = new Date(event.data.createdAt ?? event.occurredAt);
  const badges: LiveBadge[] = await em.execute(`select id, rule from cluster.badge where deleted_at is null and is_active order by created_at, id`);
  if (badges.length === 0) return;
  const [projection] = await em.execute(`select tier_id from cluster.tier_projection where member_id = ?`, [memberId]);
  const tierId: string | null = projection?.tier_id ?? null;
  for (const badge of badges) {
    if (!eventCounts(badge.rule, purchase, at, event.data, tierId)) continue;
    const goal = goalOf(badge.rule);
    await em.execute(
      `insert into cluster.badge_member_progress (id, member_id, badge_id, current_value, goal_value, is_completed, created_at, updated_at)
       values (gen_random_uuid(), ?, ?, 0, ?, false, now(), now()) on conflict (member_id, badge_id) do nothing`,
      [memberId, badge.id, goal],
    );
    const [row]: ProgressRow[] = await em.execute(
      `select id, current_value::text as current_value, is_completed, first_event_at from cluster.badge_member_progress where member_id = ? and badge_id = ? for update`,
      [memberId, badge.id],
    );
    if (row.is_completed) continue;
    const first = row.first_event_at ? new Date(row.first_event_at) : at;
    if (badge.rule.withinDays != null && at.getTime() - first.getTime() > badge.rule.withinDays * DAY_MS) continue;
    const step = countsPurchases(badge.rule) ? 100 : cents(purchase);
    const current = cents(row.current_value) + step;
    const done = current >= cents(goal);
    const [updated] = await em.execute(
      `update cluster.badge_member_progress
          set current_value = ?::numeric, goal_value = ?::numeric, is_completed = ?, completed_at = case when ? then now() else null end,
              first_event_at = coalesce(first_event_at, ?::timestamptz), updated_at = now()
        where id = ? and not is_completed
        returning completed_at`,
      [(current / 100).toFixed(2), goal, done, done, at.toISOString(), row.id],
    );
    if (done && updated) {
      // Announced once per member and badge, when the progress completes.
      const completedAt = new Date(updated.completed_at).toISOString();
      recordEvent(em, CLUSTER.events.badgeCompleted, { memberId, badgeId: badge.id, completedAt }, { aggregateId: memberId });
    }
  }
  await em.flush();
}
