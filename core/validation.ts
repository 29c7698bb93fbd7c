import { ValidationError, validate } from 'class-validator';
import { FieldError, validationError } from './errors';

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/**
 * type-graphql's validateFn: runs the class-validator rules of argument and input classes and
 * turns their failures into a VALIDATION error with one entry per failing field.
 */
export async function validateArgument(value: unknown): Promise<void> {
  const items = Array.isArray(value) ? value : [value];
  const errors: FieldError[] = [];
  for (const item of items) {
    if (item === null || typeof item !== 'object' || item.constructor === Object) continue;
    errors.push(...flatten(await validate(item, { forbidUnknownValues: false })));
  }
  if (errors.length > 0) throw validationError(errors);
}

/** class-validator `IsNumber` options for points and money: finite, at most 2 decimals. */
export const TWO_DECIMALS = { maxDecimalPlaces: 2, allowNaN: false, allowInfinity: false };

/** For `ValidateIf`: validate the field only when the client sent it (null included). */
export const given = (field: string) => (object: Record<string, unknown>) => object[field] !== undefined;
