import { EntityName, FilterQuery, QueryOrderMap } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { ClassType, Field, Int, ObjectType, ArgsType } from 'type-graphql';
import { IsInt, Max, Min } from 'class-validator';
import { PageMeta } from './graphql/common-types';

export interface Page<T> {
  meta: PageMeta;
  data: T[];
}

/** `page` (from 1) and `limit` (1..100) with the defaults most list endpoints use. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: 1 })
  @IsInt()
  @Min(1)
  page: number = 1;

  @Field(() => Int, { defaultValue: 10 })
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 10;
}

export function offsetOf(args: PageArgs): number {
  return (args.page - 1) * args.limit;
}

export function pageOf<T>(items: T[], total: number, args: PageArgs): Page<T> {
  return {
    meta: { page: args.page, limit: args.limit, total, totalPages: Math.ceil(total / args.limit) },
    data: items,
  };
}

/** A GraphQL page type `<Name>Page { meta, data }` for the given item type. */
export function PageType<T extends object>(itemType: ClassType<T>, name: string) {
  @ObjectType(`${name}Page`)
  class PageClass implements Page<T> {
    @Field(() => PageMeta) meta: PageMeta;
    @Field(() => [itemType]) data: T[];
  }
  return PageClass;
}

/** Where a page's rows are read: `offset` and `limit` in the list's order, or in the reverse order. */
export interface PageWindow {
  offset: number;
  limit: number;
  reverse: boolean;
}

/**
 * Reads a page once its total is known, from whichever end of the list is nearer: OFFSET in the first
 * half, and in the second half the same rows from the far end in the reverse order (reversed back),
 * so that the last pages cost what the first do. The list's order must be total (end on a unique key).
 */
export async function readPage<T>(total: number, args: PageArgs, read: (window: PageWindow) => Promise<T[]>): Promise<Page<T>> {
  const offset = offsetOf(args);
  if (offset >= total) return pageOf([], total, args);
  const limit = Math.min(args.limit, total - offset);
  const fromEnd = total - offset - limit;
  if (fromEnd >= offset) return pageOf(await read({ offset, limit: args.limit, reverse: false }), total, args);
  return pageOf((await read({ offset: fromEnd, limit, reverse: true })).reverse(), total, args);
}

export type SortOrder = 'asc' | 'desc';

/** A page of `entity` in `orderBy` (which must end on a unique column) given its total; see `readPage`. */
export function findPage<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  where: FilterQuery<T>,
  orderBy: Record<string, SortOrder>,
  args: PageArgs,
  total: number,
): Promise<Page<T>> {
  return readPage(total, args, ({ offset, limit, reverse }) =>
    em.find(entity, where, { orderBy: (reverse ? reversed(orderBy) : orderBy) as QueryOrderMap<T>, offset, limit }),
  );
}

function reversed(orderBy: Record<string, SortOrder>): Record<string, SortOrder> {
  return Object.fromEntries(Object.entries(orderBy).map(([field, order]) => [field, order === 'asc' ? 'desc' : 'asc']));
}
