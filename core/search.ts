/** `text` with the LIKE wildcards (and the escape character) escaped. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** A MikroORM filter matching records where any of `fields` contains `search`, case-insensitively. */
export function containsAny(fields: string[], search: string): { $or: Array<Record<string, { $ilike: string }>> } {
  const pattern = `%${escapeLike(search)}%`;
  return { $or: fields.map((field) => ({ [field]: { $ilike: pattern } })) };
}
