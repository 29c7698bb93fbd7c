import { Directive, Field, ID, ObjectType } from 'type-graphql';

/** The auth subgraph's Member, as the booking subgraph sees it: the customer of a booking. */
@Directive('@key(fields: "id")')
@ObjectType('Member')
export class MemberReference {
  @Field(() => ID) id: string;
}
