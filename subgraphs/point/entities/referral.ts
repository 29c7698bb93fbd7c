import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

export const ReferralStatus = graphqlEnum('ReferralStatus', ['pending', 'completed', 'refused']);
export type ReferralStatus = EnumValue<typeof ReferralStatus>;

export const ReferralRefusal = graphqlEnum(
  'ReferralRefusal',
  ['unknown_code', 'program_disabled', 'self_referral', 'referrer_deleted', 'referrer_limit', 'already_referred'],
  'Why a sign-up with a referral code was not accepted as a referral',
);
export type ReferralRefusal = EnumValue<typeof ReferralRefusal>;

/**
 * A new member who signed up with a referral code: pending until its first qualifying purchase completes
 * it (both sides then earn by the `referral.completed` rules), or refused with the reason. Written by the
 * referral program only (services/referral-program.ts).
 */
@ObjectType({ description: 'A sign-up with a referral code: pending, completed by a qualifying purchase, or refused' })
@Entity({ tableName: 'referral' })
export class Referral {
  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string;
  @Field({ description: 'The code the new member signed up with' }) @Property({ type: 'text' }) code: string;
  @Field(() => ID, { nullable: true, description: "The code's owner (null for an unknown code)" }) @Property({ type: 'uuid', nullable: true }) referrerId: string | null;
  @Field(() => ID, { description: 'The new member' }) @Property({ type: 'uuid' }) referredId: string;
  @Field(() => ReferralStatus) @Property({ type: 'text' }) status: ReferralStatus;
  @Field(() => ReferralRefusal, { nullable: true }) @Property({ type: 'text', nullable: true }) refusal: ReferralRefusal | null;
  @Property({ type: 'text[]', hidden: true }) fingerprints: string[];
  @Field(() => ID, { nullable: true, description: 'The purchase that completed it' }) @Property({ type: 'uuid', nullable: true }) purchaseId: string | null;
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) createdAt: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) completedAt: Date | null;
}
