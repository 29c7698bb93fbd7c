import { Field, Int, ObjectType } from 'type-graphql';

/**
 * What became of a reward's or a catalog's stock: codes handed out (`redeemed`), codes used (`used`),
 * `remaining` stock and `total` (remaining + redeemed). Unlimited stock has no `remaining` nor `total`.
 */
@ObjectType()
export class RewardStats {
  @Field(() => Int) redeemed: number;
  @Field(() => Int) used: number;
  @Field(() => Int, { nullable: true, description: 'null for INFINITE stock' }) total: number | null;
  @Field(() => Int, { nullable: true, description: 'null for INFINITE stock' }) remaining: number | null;
}
