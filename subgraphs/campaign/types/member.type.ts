import { Directive, Field, ID, ObjectType } from 'type-graphql';

/** The auth subgraph's Member, as the campaign subgraph sees it: a key to hang `campaignParticipations` on. */
@Directive('@key(fields: "id")')
@ObjectType('Member')
export class MemberReference {
  @Field(() => ID) id: string;
}
