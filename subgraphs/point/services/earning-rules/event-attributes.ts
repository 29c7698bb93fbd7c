import { toUnits } from '../../../../core/decimal';
import { FieldError } from '../../../../core/errors';
import { ATTRIBUTE_KINDS, AttributeKind, EventAttributes } from './rule-definition';

/**
 * Custom event types and their attributes: what an admin declares (checked here) and what each event
 * carries (checked against its type). Names are lowercase snake_case, so that v1's snake_case spelling
 * never changes them.
 */

export const EVENT_NAME = /^[a-z][a-z0-9_]{0,63}$/;
export const MAX_ATTRIBUTES = 50;
const MAX_TEXT = 1000;
const MAX_NUMBER = 1_000_000_000_000;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** An event type's attribute declarations, or what is wrong with them (fields under `attributes`). */
export function checkAttributeDeclarations(declared: unknown): { attributes: EventAttributes } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const add = (field: string, message: string) => errors.push({ field, message: `${field} ${message}` });
  if (declared === undefined || declared === null) return { attributes: {} };
  if (!isPlainObject(declared)) return { errors: [{ field: 'attributes', message: 'attributes must be an object: {<name>: {type, required}}' }] };
  const names = Object.keys(declared);
  if (names.length > MAX_ATTRIBUTES) add('attributes', `must declare at most ${MAX_ATTRIBUTES} attributes`);
  const attributes: EventAttributes = {};
  for (const name of names) {
    const path = `attributes.${name}`;
    const declaration = declared[name];
    if (!EVENT_NAME.test(name)) {
      // Named on `attributes`: a key that is not snake_case would be re-spelled in a v1 field path.
      errors.push({ field: 'attributes', message: `attributes: ${JSON.stringify(name)} is not a valid attribute name: lowercase letters, digits and _, starting with a letter, at most 64` });
      continue;
    }
    if (!isPlainObject(declaration)) {
      add(path, 'must be an object: {type, required}');
      continue;
    }
    for (const key of Object.keys(declaration)) if (key !== 'type' && key !== 'required') add(`${path}.${key}`, 'is not a field of an attribute (allowed: type, required)');
    const { type, required } = declaration;
    if (typeof type !== 'string' || !(ATTRIBUTE_KINDS as readonly string[]).includes(type)) add(`${path}.type`, `must be one of ${ATTRIBUTE_KINDS.join(', ')}`);
    if (required !== undefined && required !== null && typeof required !== 'boolean') add(`${path}.required`, 'must be true or false');
    attributes[name] = { type: type as AttributeKind, ...(required === true ? { required: true } : {}) };
  }
  return errors.length > 0 ? { errors } : { attributes };
}

/** An event's attribute values against its type: every declared kind, every required one present, nothing undeclared. */
export function checkAttributeValues(declared: EventAttributes, values: unknown): { values: Record<string, string | number | boolean> } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const add = (field: string, message: string) => errors.push({ field, message: `${field} ${message}` });
  if (values !== undefined && values !== null && !isPlainObject(values)) return { errors: [{ field: 'attributes', message: 'attributes must be an object' }] };
  const given = (values ?? {}) as Record<string, unknown>;
  const checked: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(given)) {
    const path = `attributes.${name}`;
    const declaration = Object.prototype.hasOwnProperty.call(declared, name) ? declared[name] : undefined;
    if (!declaration) {
      add(path, 'is not an attribute of this event type');
      continue;
    }
    if (value === null) continue;
    const fits =
      declaration.type === 'string'
        ? typeof value === 'string' && value.length <= MAX_TEXT
        : declaration.type === 'number'
          ? typeof value === 'number' && Math.abs(value) <= MAX_NUMBER && toUnits(value, 4) !== null
          : typeof value === 'boolean';
    if (!fits) {
      add(path, declaration.type === 'string' ? `must be a text of at most ${MAX_TEXT} characters` : declaration.type === 'number' ? `must be a number up to ${MAX_NUMBER} with at most 4 decimals` : 'must be true or false');
      continue;
    }
    checked[name] = value as string | number | boolean;
  }
  for (const [name, declaration] of Object.entries(declared)) if (declaration.required && !Object.hasOwn(checked, name) && !errors.some((error) => error.field === `attributes.${name}`)) add(`attributes.${name}`, 'is required');
  return errors.length > 0 ? { errors } : { values: checked };
}
