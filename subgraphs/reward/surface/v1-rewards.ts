import { FieldError, validationError } from '../../../core/errors';
import { LocalizedName, v1Name, whole } from '../../../core/rest/v1-values';
import { RewardType } from '../entities/reward';

/** v1 `category` = the reward's type in lower case (contract section 5). */
const CATEGORIES = Object.values(RewardType).map((type) => type.toLowerCase());

/** A tier as the v1 reward operations name it, for `tier_required`. */
export interface TierName extends LocalizedName {
  id: string;
  level: number;
}

/** A reward catalog as the v1 operations select it. */
export interface CatalogRecord extends LocalizedName {
  id: string;
  description_en: string | null;
  description_th: string | null;
  description_cn: string | null;
  imageUrl: string | null;
  isActive: boolean;
  status: string;
  tierCondition: 'INCLUDE' | 'EXCLUDE' | null;
  tierRequirement: string[];
  redeemRule: { pointUsage: number };
  reward: { type: string; imageUrl: string | null; stock: number; stockType: string; deletedAt: string | null } | null;
}

/**
 * A reward catalog as a v1 reward: `points_required` its price, `tier_required` the name of the
 * lowest tier its INCLUDE condition names (null without a condition or with EXCLUDE), `category` the
 * reward's type, `stock` null for INFINITE stock, `available` active, in its window and in stock.
 */
export function rewardOf(catalog: CatalogRecord, tiers: TierName[]): Record<string, unknown> {
  const required = catalog.tierCondition === 'INCLUDE' ? tiers.filter((tier) => catalog.tierRequirement.includes(tier.id)).sort((a, b) => a.level - b.level)[0] : undefined;
  const reward = catalog.reward;
  return {
    id: catalog.id,
    name: v1Name(catalog),
    description: catalog.description_en ?? catalog.description_th ?? catalog.description_cn,
    category: reward ? reward.type.toLowerCase() : null,
    pointsRequired: whole(catalog.redeemRule.pointUsage),
    tierRequired: required ? v1Name(required) : null,
    image: catalog.imageUrl ?? reward?.imageUrl ?? null,
    available: catalog.isActive && catalog.status === 'ACTIVE',
    stock: !reward || reward.deletedAt ? 0 : reward.stockType === 'INFINITE' ? null : reward.stock,
  };
}

/**
 * The v1 reward list's variables: `category`, `tier` (a tier id), `points_min`, `points_max` (whole
 * numbers), `available` (boolean), `page`, `limit`. Every bad parameter at once (400).
 */
export function rewardListVariables(query: Record<string, unknown>): Record<string, unknown> {
  const errors: FieldError[] = [];
  const variables: Record<string, unknown> = { page: query.page, limit: query.limit, eligibleTierId: query.tier };
  if (query.category !== undefined) {
    if (typeof query.category === 'string' && CATEGORIES.includes(query.category)) variables.rewardType = query.category.toUpperCase();
    else errors.push({ field: 'category', message: `category is one of ${CATEGORIES.join(', ')}` });
  }
  for (const [field, key, value] of [['points_min', 'pointUsageMin', query.pointsMin], ['points_max', 'pointUsageMax', query.pointsMax]] as const) {
    if (value === undefined) continue;
    if (typeof value === 'string' && /^\d{1,12}$/.test(value)) variables[key] = Number(value);
    else errors.push({ field, message: `${field} is a whole number of points` });
  }
  if (variables.pointUsageMin !== undefined && variables.pointUsageMax !== undefined && (variables.pointUsageMin as number) > (variables.pointUsageMax as number)) {
    errors.push({ field: 'points_max', message: 'points_max must be at least points_min' });
  }
  if (query.available !== undefined) {
    if (query.available === 'true' || query.available === 'false') variables.available = query.available === 'true';
    else errors.push({ field: 'available', message: 'available is true or false' });
  }
  if (query.tier !== undefined && (typeof query.tier !== 'string' || query.tier === '')) errors.push({ field: 'tier', message: 'tier is a tier id' });
  if (errors.length > 0) throw validationError(errors);
  return variables;
}
