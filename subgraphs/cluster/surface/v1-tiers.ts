import { LocalizedName, v1Name, whole } from '../../../core/rest/v1-values';

/** A tier as the v1 operations select it. */
export interface TierRecord extends LocalizedName {
  id: string;
  level: number;
  requirement?: { purchaseAmountHit: number | null } | null;
  benefit?: LocalizedName[];
}

/** A cluster tier as a v1 tier: `points_threshold` what reaches it (its requirement), `benefits` their names. */
export function tierOf(tier: TierRecord): Record<string, unknown> {
  return {
    id: tier.id,
    name: v1Name(tier),
    level: tier.level,
    pointsThreshold: whole(tier.requirement?.purchaseAmountHit),
    benefits: (tier.benefit ?? []).map(v1Name).filter((name): name is string => !!name),
  };
}
