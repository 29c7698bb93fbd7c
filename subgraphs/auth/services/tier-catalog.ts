import { EntityManager } from '@mikro-orm/postgresql';
import { PublishedEvent } from '../../../core/events/outbox-event';
import { isRecordId } from '../../../core/ids';
import { LOCALES } from '../../../core/i18n';
import { containsAny } from '../../../core/search';
import type { TierCatalogChanged } from '../../cluster/contract';
import { TierCatalogEntry } from '../entities/tier-catalog-entry';

/** The tiers a `filter[tier]` names, and whether the entry tier is one of them (members promised it match too). */
export interface TierFilter {
  tierIds: string[];
  entryTier: boolean;
}

/**
 * Keeps `auth.tier_catalog` from the cluster's `tier.catalog_changed` (a tier's events in commit order):
 * each event is the tier as written, so it replaces the row.
 */
export async function applyTierCatalog(em: EntityManager, event: PublishedEvent<TierCatalogChanged>): Promise<void> {
  const { tierId, name_en, name_th, name_cn, level, isActive, isSpecial, createdAt, deletedAt } = event.data;
  await em.execute(
    `insert into auth.tier_catalog (tier_id, name_en, name_th, name_cn, level, is_active, is_special, created_at, deleted_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (tier_id) do update set name_en = excluded.name_en, name_th = excluded.name_th, name_cn = excluded.name_cn,
       level = excluded.level, is_active = excluded.is_active, is_special = excluded.is_special, created_at = excluded.created_at, deleted_at = excluded.deleted_at`,
    [tierId, name_en, name_th, name_cn, level, isActive, isSpecial, createdAt, deletedAt],
  );
}

/**
 * `filter[tier]` from auth's tier catalog: an id as given, a name as the live tiers (active or not) with
 * exactly this name in some language, case ignored; and whether the cluster's entry tier is among them.
 */
export async function tierFilterOf(em: EntityManager, tier: string): Promise<TierFilter> {
  const tierIds = isRecordId(tier) ? [tier] : await idsNamed(em, tier);
  const entry = await entryTierOf(em);
  return { tierIds, entryTier: entry != null && tierIds.includes(entry.tierId) };
}

/** The live tiers (active or not) with exactly this name in some language, case ignored. */
async function idsNamed(em: EntityManager, name: string): Promise<string[]> {
  const wanted = name.trim().toLowerCase();
  const candidates = await em.find(TierCatalogEntry, { deletedAt: null, ...containsAny(LOCALES.map((language) => `name_${language}`), name) });
  return candidates.filter((entry) => [entry.name_en, entry.name_th, entry.name_cn].some((value) => value?.trim().toLowerCase() === wanted)).map((entry) => entry.tierId);
}

/** The cluster's entry tier (its `entryTierOf`): the live, active, non-special tier of the lowest level, oldest first. */
function entryTierOf(em: EntityManager): Promise<TierCatalogEntry | null> {
  return em.findOne(TierCatalogEntry, { deletedAt: null, isActive: true, isSpecial: false }, { orderBy: { level: 'asc', createdAt: 'asc', tierId: 'asc' } });
}
