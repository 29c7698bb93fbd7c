import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Float, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';

/** The referral program's settings: one row, changed by an admin. */
@ObjectType({ description: "The referral program's settings" })
@Entity({ tableName: 'referral_settings' })
export class ReferralSettings {
  @PrimaryKey({ type: 'int' }) id: number;
  @Field({ description: 'Sign-ups with a code are refused (program_disabled) while false' }) @Property({ type: 'boolean' }) enabled: boolean;
  @Field(() => Int, { nullable: true, description: 'How many accepted referrals one member may have in all (null: no limit)' })
  @Property({ type: 'int', nullable: true })
  referrerLimit: number | null;
  @Field(() => Float, { description: 'The least purchase amount that completes a referral' }) @Property({ type: 'decimal' }) minPurchaseAmount: string;
  @Field(() => Int, { nullable: true, description: 'Days after the sign-up within which the purchase must come (null: no limit)' })
  @Property({ type: 'int', nullable: true })
  completionDays: number | null;
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) updatedAt: Date;
}
