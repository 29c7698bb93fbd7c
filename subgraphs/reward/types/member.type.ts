import { Directive, Field, ID, ObjectType } from 'type-graphql';

/** The auth subgraph's Member, as the reward subgraph sees it: a key to hang `rewardCodes` on, and what a code's `member` points at. */
@Directive('@key(fields: "id")')
@ObjectType('Member')
export class MemberReference {
  @Field(() => ID) id: string;
}
