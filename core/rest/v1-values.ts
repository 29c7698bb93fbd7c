/** A record named in each locale (`name_en`, `name_th`, `name_cn`). */
export interface LocalizedName {
  name_en: string | null;
  name_th: string | null;
  name_cn: string | null;
}

/** Its one v1 `name`: English, else Thai, else Chinese. */
export const v1Name = (record: LocalizedName): string | null => record.name_en ?? record.name_th ?? record.name_cn;

/** A v1 whole number (points, thresholds): rounded toward zero, 0 for none. */
export const whole = (value: number | string | null | undefined): number => Math.trunc(Number(value ?? 0)) || 0;
