import { EntityManager } from '@mikro-orm/postgresql';
import { Principal } from '../../../core/auth/principal';
import { badRequest, conflict, validationError } from '../../../core/errors';
import { timeOrderedId } from '../../../core/ids';
import { KnownMembers } from '../../../core/known-members';
import { findPage, Page } from '../../../core/pagination';
import { CustomEvent } from '../entities/custom-event';
import { CustomEventType } from '../entities/custom-event-type';
import { CustomEventInput, CustomEventListArgs } from '../types/custom-event.types';
import { checkAttributeValues } from './earning-rules/event-attributes';
import { CUSTOM_EVENT } from './earning-rules/rule-definition';
import { RuleEarning } from './earning-rules/rule-earning';
import { bounds } from './point.service';
import { pointsInAll } from './purchase.service';

/** An event may say it happened a little ahead of our clock (the sender's clock), not more. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * Custom events: what a member did that the retailer's systems report. Each is recorded once per sender
 * and `eventId`, with what the earning rules of its type give it, in one transaction: a repeat (or a
 * concurrent twin, which waits on the unique index) answers the first and earns nothing.
 */
export class CustomEventService {
  constructor(
    private readonly em: EntityManager,
    private readonly earning: RuleEarning,
    private readonly members: KnownMembers,
  ) {}

  async record(input: CustomEventInput, caller: Principal, requestId?: string): Promise<CustomEvent> {
    const occurredAt = input.occurredAt ? new Date(input.occurredAt) : new Date();
    if (occurredAt.getTime() > Date.now() + CLOCK_SKEW_MS) throw badRequest('occurredAt must not be in the future', 'occurredAt');
    await this.members.assertExists(input.customerId, requestId);
    return this.em.transactional(async (em) => {
      const eventType = await em.findOne(CustomEventType, { name: input.type });
      if (!eventType) throw validationError([{ field: 'type', message: `type names no declared event type (${input.type})` }]);
      const checked = checkAttributeValues(eventType.attributes, input.attributes);
      if ('errors' in checked) throw validationError(checked.errors);
      const id = timeOrderedId();
      const sender = `${caller.kind}:${caller.id}`;
      const inserted: Array<{ id: string }> = await em.execute(
        `insert into point.custom_event (id, type, member_id, event_id, caller, occurred_at, attributes) values (?, ?, ?, ?, ?, ?, ?::jsonb)
         on conflict (caller, event_id) do nothing returning id`,
        [id, input.type, input.customerId, input.eventId, sender, occurredAt, JSON.stringify(checked.values)],
      );
      if (inserted.length === 0) return this.earlier(em, sender, input);
      const earned = await this.earning.applyAlone(em, {
        type: 'custom_event',
        id,
        memberId: input.customerId,
        facts: { trigger: `${CUSTOM_EVENT}${input.type}`, occurredAt, attributes: checked.values },
        sourceBy: null,
      });
      if (earned.length > 0) await em.execute(`update point.custom_event set points_earned = ?::numeric where id = ?`, [pointsInAll('0', earned), id]);
      return em.findOneOrFail(CustomEvent, { id }, { refresh: true });
    });
  }

  /** A member's events, the newest first (by when they happened). */
  async ofMember(args: CustomEventListArgs): Promise<Page<CustomEvent>> {
    const where: Record<string, unknown> = { memberId: args.memberId };
    if (args.type) where.type = args.type;
    if (args.dateFrom || args.dateTo) {
      const [from, to] = bounds(args.dateFrom, args.dateTo);
      where.occurredAt = { $gte: from, $lt: to };
    }
    return findPage(this.em, CustomEvent, where, { occurredAt: 'desc', id: 'desc' }, args, await this.em.count(CustomEvent, where));
  }

  /** The event a sender's id already names; 409 on `eventId` when the repeat names another type or customer. */
  private async earlier(em: EntityManager, sender: string, input: CustomEventInput): Promise<CustomEvent> {
    const first = await em.findOneOrFail(CustomEvent, { caller: sender, eventId: input.eventId }, { refresh: true });
    if (first.type !== input.type || first.memberId !== input.customerId.toLowerCase()) {
      throw conflict(`eventId ${input.eventId} already names another event (${first.id})`, 'eventId');
    }
    return first;
  }
}
