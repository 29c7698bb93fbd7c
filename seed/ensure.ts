import { Tally } from './tally';

/** The ids of listed items by one of their fields (the first item of each value). */
export function idsBy<K extends string>(items: ReadonlyArray<{ id: string } & { [key in K]: string | null }>, key: K): Map<string, string> {
  const ids = new Map<string, string>();
  for (const item of items) {
    const value = item[key];
    if (value !== null && !ids.has(value)) ids.set(value, item.id);
  }
  return ids;
}

/**
 * Check, then create: the id of each item by its name, taken from those the platform has already
 * (`existing`, noted present) or made by `create` (noted created), one item after another.
 */
export async function ensureNamed<T>(
  tally: Tally,
  kind: string,
  items: readonly T[],
  nameOf: (item: T) => string,
  existing: Map<string, string>,
  create: (item: T) => Promise<string>,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const item of items) {
    const found = existing.get(nameOf(item));
    ids.set(nameOf(item), found ?? (await create(item)));
    tally.note(kind, found ? 'present' : 'created');
  }
  return ids;
}
