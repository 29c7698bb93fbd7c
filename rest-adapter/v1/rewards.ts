interface TierRecord {
  id: string;
  level: number;
  name_en: string | null;
  name_th: string | null;
  name_cn: string | null;
  requirement?: { purchaseAmountHit: number | null } | null;
  benefit?: Array<{ name_en: string | null; name_th: string | null; name_cn: string | null }>;
}

const nameOf = (record: { name_en: string | null; name_th: string | null; name_cn: string | null }): string | null => record.name_en ?? record.name_th ?? record.name_cn;
const whole = (value: number | string | null | undefined): number => Math.trunc(Number(value ?? 0)) || 0;

/** A cluster tier as a v1 tier: `points_threshold` what reaches it (its requirement), `benefits` their names. */
export function tierOf(tier: TierRecord): Record<string, unknown> {
  return {
    id: tier.id,
    name: nameOf(tier),
    level: tier.level,
    pointsThreshold: whole(tier.requirement?.purchaseAmountHit),
    benefits: (tier.benefit ?? []).map(nameOf).filter((name): name is string => !!name),
  };
}
