/** A stream of numbers in [0, 1) that follows from a seed: the same choices every run of the seed. */
export type Random = () => number;

/** mulberry32: a small seeded generator (property tests, benches). */
export function seeded(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A whole number from `min` to `max`, both included. */
export const int = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));
export const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
export const chance = (random: Random, p: number) => random() < p;
/** `count` different items (all of them when there are fewer), in the order drawn. */
export const some = <T>(random: Random, items: readonly T[], count: number): T[] => {
  const pool = [...items];
  return Array.from({ length: Math.min(count, pool.length) }, () => pool.splice(Math.floor(random() * pool.length), 1)[0]);
};
