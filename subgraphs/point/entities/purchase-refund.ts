import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, Float, ID, ObjectType } from 'type-graphql';

/**
 * One refund of a purchase: the amount given back and the points it took back (`pointsReversed`) or
 * could not take back because the balance no longer held them (`pointsUnrecovered`). Append-only.
 */
@ObjectType()
@Entity({ tableName: 'purchase_refund' })
export class PurchaseRefund {
  [OptionalProps]?: 'spendEntryId' | 'createdAt';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field(() => ID) @Property({ type: 'uuid' }) purchaseId: string;
  @Field(() => ID) @Property({ type: 'uuid' }) memberId: string;
  @Field(() => Float) @Property({ type: 'decimal' }) amount: string;
  @Field(() => Float) @Property({ type: 'decimal' }) pointsReversed: string;
  @Field(() => Float) @Property({ type: 'decimal' }) pointsUnrecovered: string;
  @Field(() => ID, { nullable: true, description: 'The ledger entry that took the points back' }) @Property({ type: 'uuid', nullable: true }) spendEntryId: string | null = null;
  @Field() @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}
