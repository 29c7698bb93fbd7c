import { ArrayType, Platform, TransformContext } from '@mikro-orm/core';
import { arrayLiteral } from './array-literal';

/**
 * A `text[]` column whose elements are always quoted when written. MikroORM quotes only elements with
 * `"`, `{`, `}`, `,` or `\`, so an element a client chose, such as `NULL` (stored as SQL NULL, after
 * which every read of the row fails) or ` a ` (trimmed), would not come back as it was sent.
 */
export class TextArrayType extends ArrayType<string> {
  convertToDatabaseValue(value: string[] | null, platform: Platform, context?: TransformContext): string | null {
    return Array.isArray(value) ? arrayLiteral(value) : super.convertToDatabaseValue(value, platform, context);
  }

  getColumnType(): string {
    return 'text[]';
  }
}
