import { Directive, Field, ID, ObjectType } from 'type-graphql';

/** The auth subgraph's Member, as the cluster subgraph sees it: a key to hang `tier` on. */
@Directive('@key(fields: "id")')
@ObjectType('Member')
export class MemberReference {
  @Field(() => ID) id: string;

  /** Auth's projection of the member's tier (the entry tier its creation promised), asked for by `tier`. */
  @Directive('@external')
  @Field(() => ID, { nullable: true })
  projectedTierId?: string | null;
}
