import { Reward, StockType } from '../entities/reward';
import { RewardCatalog, RewardCatalogStatus } from '../entities/reward-catalog';
import { RewardStats } from '../entities/reward-stats';

/** Whether the reward has a unit to hand out: live, and INFINITE or with stock left. */
export const inStock = (reward: Pick<Reward, 'deletedAt' | 'stockType' | 'stock'> | null): boolean =>
  !!reward && !reward.deletedAt && (reward.stockType === StockType.INFINITE || reward.stock > 0);

/**
 * A catalog's status at `now`: EXPIRED once its window has ended, UPCOMING before it starts, and within
 * it (or without a window) OUT_OF_STOCK when its reward has nothing left, ACTIVE otherwise. `isActive`
 * is a separate switch. `STATUS_SQL` says the same in SQL.
 */
export function catalogStatus(catalog: Pick<RewardCatalog, 'windowStart' | 'windowEnd'>, reward: Parameters<typeof inStock>[0], now: Date): RewardCatalogStatus {
  if (catalog.windowEnd && catalog.windowEnd < now) return RewardCatalogStatus.EXPIRED;
  if (catalog.windowStart && catalog.windowStart > now) return RewardCatalogStatus.UPCOMING;
  return inStock(reward) ? RewardCatalogStatus.ACTIVE : RewardCatalogStatus.OUT_OF_STOCK;
}

const IN_WINDOW = '(c.window_start is null or c.window_start <= now()) and (c.window_end is null or c.window_end >= now())';
const IN_STOCK = "(r.deleted_at is null and (r.stock_type = 'INFINITE' or r.stock > 0))";

/** `catalogStatus` as conditions on the catalog `c` joined to its reward `r`. */
export const STATUS_SQL: Record<RewardCatalogStatus, string> = {
  EXPIRED: 'c.window_end < now()',
  UPCOMING: 'c.window_start > now()',
  OUT_OF_STOCK: `${IN_WINDOW} and not ${IN_STOCK}`,
  ACTIVE: `${IN_WINDOW} and ${IN_STOCK}`,
};

/**
 * A catalog's stats: the codes redeemed and used through it, and the reward's stock as `remaining`
 * (`total` = remaining + redeemed); null for INFINITE stock, 0 remaining once the reward is deleted.
 */
export function catalogStats(catalog: Pick<RewardCatalog, 'redeemedCount' | 'usedCount'>, reward: Reward | null): RewardStats {
  const live = reward && !reward.deletedAt ? reward : null;
  const remaining = live?.stockInfinite ? null : (live?.stock ?? 0);
  return { redeemed: catalog.redeemedCount, used: catalog.usedCount, remaining, total: remaining === null ? null : remaining + catalog.redeemedCount };
}
