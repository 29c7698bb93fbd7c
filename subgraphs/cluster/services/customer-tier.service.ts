import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { INCLUDING_DELETED } from '../../../core/db/soft-deletable';
import { AppError, conflict, notFound, validationError } from '../../../core/errors';
import { PublishedEvent } from '../../../core/events/outbox-event';
import { isRecordId } from '../../../core/ids';
import { CustomerCreated, customerCreatedOf, LegacyCustomerCreated } from '../../auth/contract';
import { ClusterDeps } from '../cluster-deps';
import { Tier } from '../entities/tier';
import { TierProjection } from '../entities/tier-projection';
import { ChangeCustomerTierInput } from '../types/customer-tier.types';
import { recordTierChange } from './tier-change';

/** The tier a new customer starts in: the live, active, non-special tier of the lowest level (oldest first). */
export function entryTierOf(em: EntityManager): Promise<Tier | null> {
  return em.findOne(Tier, { isActive: true, isSpecial: false }, { orderBy: { level: 'asc', createdAt: 'asc', id: 'asc' } });
}

/**
 * Places a new customer (auth's `customer.created` starting in the entry tier: v1 creations) in the entry
 * tier, unless the member has a tier already (a staff change got there first, or the event is a
 * repeat): one projection per member, so the insert that loses does nothing. Writes the `assign`
 * change and its event like an assignment. Members created by the Part 1 paths (chat-app login,
 * staff direct creation) are announced without it and start without a tier, as before.
 */
export async function placeNewCustomer(em: EntityManager, event: PublishedEvent<CustomerCreated | LegacyCustomerCreated>): Promise<void> {
  const { memberId, startsInEntryTier } = customerCreatedOf(event.data);
  if (!memberId || !startsInEntryTier) return;
  const tier = await entryTierOf(em);
  if (!tier) return;
  const inserted: unknown[] = await em.execute(
    `insert into cluster.tier_projection (id, member_id, tier_id, tier_end_at, created_at, updated_at)
     values (?, ?, ?, null, now(), now()) on conflict (member_id) do nothing returning id`,
    [randomUUID(), memberId, tier.id],
    'all',
  );
  if (inserted.length === 0) return;
  await recordTierChange(em, { memberId, fromTierId: null, toTierId: tier.id, changeType: 'assign', source: 'assign', tierEndAt: null, snapshot: {} });
}

/** v1 manual tier changes (PATCH /api/v1/customers/{id}/tier). */
export class CustomerTierService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: ClusterDeps,
  ) {}

  entryTier(): Promise<Tier | null> {
    return entryTierOf(this.em);
  }

  /**
   * Moves the customer to the tier named by `tierId` or by `tier` (a name in any language, case
   * ignored), writing a history item with `reason` and `customer.tier_changed` (source `manual`),
   * under the projection's row lock. The customer must exist (the cluster's projection of which members
   * exist, auth through the supergraph for one it does not hold: 404 otherwise); the tier must be live and active (404 on the field otherwise). The same tier again
   * changes nothing. A manual tier does not end.
   */
  async change(memberId: string, input: ChangeCustomerTierInput): Promise<TierProjection> {
    const tier = await this.tierOf(input);
    if (!(await this.deps.members.known([memberId])).has(memberId.toLowerCase())) throw notFound('Customer', memberId);
    try {
      return await this.em.transactional(async (em) => {
        const current = await em.findOne(TierProjection, { memberId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (current?.tierId === tier.id) return current;
        const fromTierId = current?.tierId ?? null;
        const fromTier = fromTierId ? await em.findOne(Tier, { id: fromTierId }, INCLUDING_DELETED) : null;
        const projection = current ?? em.create(TierProjection, { memberId, tierId: tier.id });
        projection.tierId = tier.id;
        projection.tierEndAt = null;
        projection.updatedAt = new Date();
        await recordTierChange(em, {
          memberId,
          fromTierId,
          toTierId: tier.id,
          changeType: fromTier && fromTier.level > tier.level ? 'downgrade' : 'upgrade',
          source: 'manual',
          tierEndAt: null,
          snapshot: {},
          reason: input.reason,
        });
        return projection;
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw conflict('The customer was placed in a tier at the same time: try again');
      throw error;
    }
  }

  /** The live, active tier the input names: 400 when it names it both ways (the input type wants one); 404 on the field when none is found. */
  private async tierOf(input: ChangeCustomerTierInput): Promise<Tier> {
    const byId = input.tierId !== undefined && input.tierId !== null;
    if (byId && input.tier != null) {
      const message = 'Give tier (a name) or tierId, not both';
      throw validationError([{ field: 'tier', message }, { field: 'tierId', message }]);
    }
    if (byId) {
      const tier = isRecordId(input.tierId!) ? await this.em.findOne(Tier, { id: input.tierId!, isActive: true }) : null;
      if (!tier) throw tierNotFound('tierId');
      return tier;
    }
    const name = input.tier!.trim().toLowerCase();
    const tiers = await this.em.find(Tier, {
      isActive: true,
      $or: [{ name_en: { $ilike: escapeLike(name) } }, { name_th: { $ilike: escapeLike(name) } }, { name_cn: { $ilike: escapeLike(name) } }],
    });
    if (tiers.length === 0) throw tierNotFound('tier');
    if (tiers.length > 1) throw validationError([{ field: 'tier', message: 'Several active tiers have this name: name the tier by tier_id' }]);
    return tiers[0];
  }
}

/** 404 naming the field, so that the v1 route answers TIER_NOT_FOUND rather than its customer code. */
const tierNotFound = (field: string) => new AppError('NOT_FOUND', 'Tier not found', [{ field, message: 'No active tier has this name or id' }]);

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (character) => `\\${character}`);
