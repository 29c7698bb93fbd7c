import { Field, GraphQLISODateTime, ObjectType } from 'type-graphql';

/** When a reward may be used or a catalog redeemed: `{start, end}`, both ISO 8601 datetimes. */
@ObjectType()
export class RewardWindow {
  @Field(() => GraphQLISODateTime) start: Date;
  @Field(() => GraphQLISODateTime) end: Date;
}

/** The window of two stored columns, or null when they are not set. */
export const windowOf = (start: Date | null, end: Date | null): RewardWindow | null => (start && end ? { start, end } : null);
