import { Directive, Field, Int, ObjectType } from 'type-graphql';

/** Pagination facts of a page of results. */
@Directive('@shareable')
@ObjectType()
export class PageMeta {
  @Field(() => Int) page: number;
  @Field(() => Int) limit: number;
  @Field(() => Int) total: number;
  @Field(() => Int) totalPages: number;
}
