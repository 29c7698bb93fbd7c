import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Float, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

export const PendingStatus = graphqlEnum('PendingPointsStatus', ['pending', 'activated', 'cancelled']);
export type PendingStatus = EnumValue<typeof PendingStatus>;

/**
 * Points held for a member until `activatesAt` (a purchase's return window, or a rule's period): not
 * spendable and not toward tiers; activated into an EARN entry (`earnEntryId`) by the job or early by an
 * admin, or cancelled (a refund of their purchase reduces `amount` first). Written by the ledger only.
 */
@ObjectType({ description: 'Points held before they can be spent' })
@Entity({ tableName: 'pending_points' })
export class PendingPoints {
  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string;
  @Field(() => ID) @Property({ type: 'uuid' }) memberId: string;
  @Field(() => Float, { description: 'Held now (a refund may have reduced it)' }) @Property({ type: 'decimal' }) amount: string;
  @Field(() => Float) @Property({ type: 'decimal' }) originalAmount: string;
  @Field(() => Float) @Property({ type: 'decimal' }) purchaseAmount: string;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) note: string | null;
  @Field(() => String, { nullable: true, description: 'The purchase (or event) it names' }) @Property({ type: 'text', nullable: true }) referenceId: string | null;
  @Field({ description: 'purchase, custom_event, booking, customer' }) @Property({ type: 'text' }) sourceType: string;
  @Field() @Property({ type: 'text' }) sourceId: string;
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) activatesAt: Date;
  @Field(() => PendingStatus) @Property({ type: 'text' }) status: PendingStatus;
  @Field(() => ID, { nullable: true, description: 'The EARN entry of its activation' }) @Property({ type: 'uuid', nullable: true }) earnEntryId: string | null;
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) createdAt: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) settledAt: Date | null;
}
