import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Member } from '../entities/member';

/** The cluster's entry tier as auth read it when the customer was created. */
@ObjectType()
export class CustomerEntryTier {
  @Field(() => ID) id: string;
  @Field(() => String, { nullable: true }) name_en: string | null;
  @Field(() => String, { nullable: true }) name_th: string | null;
  @Field(() => String, { nullable: true }) name_cn: string | null;
  @Field(() => Int) level: number;
}

/** A created customer and the tier it starts in (null: the cluster has no active tier, or did not answer). */
@ObjectType()
export class CustomerCreation {
  @Field(() => Member) member: Member;
  @Field(() => CustomerEntryTier, { nullable: true }) tier: CustomerEntryTier | null;
}

/** A deleted customer: its id and when it was deleted (its personal data is erased). */
@ObjectType()
export class CustomerDeletion {
  @Field(() => ID) id: string;
  @Field() deletedAt: Date;
}
