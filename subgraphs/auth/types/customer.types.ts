import { Field, ID, ObjectType } from 'type-graphql';
import { Member } from '../entities/member';

/** A created customer (its `tier`, the cluster's, shows the entry tier it starts in). */
@ObjectType()
export class CustomerCreation {
  @Field(() => Member) member: Member;
}

/** A deleted customer: its id and when it was deleted (its personal data is erased). */
@ObjectType()
export class CustomerDeletion {
  @Field(() => ID) id: string;
  @Field() deletedAt: Date;
}
