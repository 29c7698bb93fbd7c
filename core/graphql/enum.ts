import { registerEnumType } from 'type-graphql';

/**
 * A string enum for TypeScript, GraphQL, MikroORM and class-validator at once: each value is its own
 * name, registered in GraphQL under `name`. Pair it with `type X = EnumValue<typeof X>`.
 */
export function graphqlEnum<const V extends string>(name: string, values: readonly V[], description?: string): { readonly [K in V]: K } {
  const enumObject = Object.freeze(Object.fromEntries(values.map((value) => [value, value]))) as { readonly [K in V]: K };
  registerEnumType(enumObject, { name, description });
  return enumObject;
}

/** The union of an enum object's values. */
export type EnumValue<E> = E[keyof E];
