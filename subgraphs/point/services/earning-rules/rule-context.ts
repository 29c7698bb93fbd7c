import { EntityManager } from '@mikro-orm/postgresql';
import { EventAttributes, RuleContext } from './rule-definition';

/**
 * What rules are checked against, as the caller's transaction sees it: the live custom event types. A
 * rule's write names the type its trigger needs (`sharing`): that type's row is share-locked, so that it
 * cannot be deleted or retyped before the rule commits.
 */
export async function ruleContext(em: EntityManager, sharing?: string): Promise<RuleContext> {
  if (sharing) await em.execute(`select id from point.custom_event_type where name = ? and deleted_at is null for share`, [sharing]);
  const rows: Array<{ name: string; attributes: EventAttributes }> = await em.execute(`select name, attributes from point.custom_event_type where deleted_at is null`);
  return { eventTypes: new Map(rows.map((row) => [row.name, row.attributes])) };
}
