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
