import { timeOrderedId } from '../../../core/ids';
import { Entity, Enum, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Float, ID, ObjectType } from 'type-graphql';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

export const PurchaseStatus = graphqlEnum('PurchaseStatus', ['COMPLETED', 'PARTIALLY_REFUNDED', 'REFUNDED']);
export type PurchaseStatus = EnumValue<typeof PurchaseStatus>;

/**
 * A member's purchase (a v1 transaction): its amount earns whole points by the store's shop rule (the
 * store's live active rule, else the default rule) in the transaction that records it; refunds take the
 * points back in proportion. `externalId` (unique per store) makes a retailer's import idempotent.
 * Money and points are numeric in the database and decimal strings here.
 */
@ObjectType()
@Entity({ tableName: 'purchase' })
export class Purchase {
  [OptionalProps]?:
    | 'storeId'
    | 'category'
    | 'externalId'
    | 'status'
    | 'pointsEarned'
    | 'pointRuleId'
    | 'earnEntryId'
    | 'refundedAmount'
    | 'pointsReversed'
    | 'pointsUnrecovered'
    | 'createdAt'
    | 'updatedAt';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = timeOrderedId();
  @Field(() => ID) @Property({ type: 'uuid' }) memberId: string;
  @Field(() => Float, { description: 'In currency units, 2 decimals' }) @Property({ type: 'decimal' }) amount: string;
  @Field(() => String, { nullable: true, description: 'The shop id of the point shop rules' }) @Property({ type: 'text', nullable: true }) storeId: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) category: string | null = null;
  @Field(() => String, { nullable: true, description: "The retailer's own id of the purchase, unique per store" })
  @Property({ type: 'text', nullable: true })
  externalId: string | null = null;
  @Field({ description: 'When the purchase happened (the recording time unless given)' }) @Property({ type: 'timestamptz' }) occurredAt: Date;
  @Field(() => PurchaseStatus) @Enum({ items: () => PurchaseStatus }) status: PurchaseStatus = PurchaseStatus.COMPLETED;
  @Field(() => Float, { description: 'Whole points the purchase earned' }) @Property({ type: 'decimal' }) pointsEarned: string = '0';
  @Field(() => ID, { nullable: true, description: 'The shop rule that priced it; null when no active rule applied' })
  @Property({ type: 'uuid', nullable: true })
  pointRuleId: string | null = null;
  @Field(() => ID, { nullable: true, description: 'The ledger entry of its points' }) @Property({ type: 'uuid', nullable: true }) earnEntryId: string | null = null;
  @Field(() => Float) @Property({ type: 'decimal' }) refundedAmount: string = '0';
  @Field(() => Float, { description: 'Points its refunds took back from the balance' }) @Property({ type: 'decimal' }) pointsReversed: string = '0';
  @Field(() => Float, { description: 'Points its refunds should have taken back but the balance no longer held' })
  @Property({ type: 'decimal' })
  pointsUnrecovered: string = '0';
  @Field() @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field() @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}
