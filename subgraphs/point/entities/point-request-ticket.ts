import { Entity, Enum, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, Float, ID, ObjectType } from 'type-graphql';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

/** What a ticket asks for; a ticket never expires points. */
export const PointRequestActionType = graphqlEnum('PointRequestActionType', ['EARN', 'SPEND']);
export type PointRequestActionType = EnumValue<typeof PointRequestActionType>;

export const PointRequestStatus = graphqlEnum('PointRequestStatus', ['pending', 'approved', 'rejected']);
export type PointRequestStatus = EnumValue<typeof PointRequestStatus>;

/**
 * A request to earn or spend points for a member, waiting for a reviewer. Approving it writes the
 * ledger entry (with `requestTicketId`) in the same transaction as the status change.
 * Amounts are numeric in the database and decimal strings here; GraphQL serializes them as numbers.
 */
@ObjectType()
@Entity({ tableName: 'point_request_ticket' })
export class PointRequestTicket {
  [OptionalProps]?: 'purchaseAmount' | 'shopId' | 'categoryId' | 'status' | 'reviewReason' | 'reviewedById' | 'reviewedAt' | 'createdAt' | 'updatedAt';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field(() => ID) @Property({ type: 'uuid' }) memberId: string;
  @Field(() => PointRequestActionType) @Enum({ items: () => PointRequestActionType }) actionType: PointRequestActionType;
  @Field(() => Float) @Property({ type: 'decimal' }) amount: string;
  @Field(() => Float) @Property({ type: 'decimal' }) purchaseAmount: string = '0';
  @Field(() => String, { nullable: true }) @Property({ nullable: true }) shopId: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ nullable: true }) categoryId: string | null = null;
  @Field(() => PointRequestStatus) @Enum({ items: () => PointRequestStatus }) status: PointRequestStatus = PointRequestStatus.pending;
  @Field() @Property({ type: 'text' }) requestReason: string;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) reviewReason: string | null = null;
  @Field() @Property({ type: 'text' }) requestedById: string;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) reviewedById: string | null = null;
  @Field() @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field() @Property({ type: 'timestamptz' }) updatedAt: Date = new Date();
  @Field(() => Date, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) reviewedAt: Date | null = null;
}
