import { Entity, Enum, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, Float, ID, ObjectType } from 'type-graphql';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

export const ReceiptVerificationStatus = graphqlEnum('ReceiptVerificationStatus', ['PENDING', 'PROCESSING', 'APPROVED', 'REJECTED']);
export type ReceiptVerificationStatus = EnumValue<typeof ReceiptVerificationStatus>;

/**
 * A receipt a member sent for points: opened `PENDING` with its image, then approved (once: the
 * ledger entry is written in the same transaction and linked both ways) or rejected.
 * `money` is numeric in the database and a decimal string here.
 */
@ObjectType()
@Entity({ tableName: 'receipt_verification' })
export class ReceiptVerification {
  [OptionalProps]?:
    | 'status'
    | 'money'
    | 'pointRuleId'
    | 'reviewReason'
    | 'reviewById'
    | 'shopId'
    | 'categoryId'
    | 'receiptId'
    | 'pointTransactionId'
    | 'createdAt'
    | 'updatedAt';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field(() => ID) @Property({ type: 'uuid' }) memberId: string;
  @Field(() => ReceiptVerificationStatus) @Enum({ items: () => ReceiptVerificationStatus }) status: ReceiptVerificationStatus = ReceiptVerificationStatus.PENDING;
  @Field() @Property({ type: 'text' }) receiptImageUrl: string;
  @Field(() => Float, { nullable: true, description: 'Amount of the receipt, in currency units' })
  @Property({ type: 'decimal', nullable: true })
  money: string | null = null;
  @Field(() => ID, { nullable: true, description: 'The shop rule that priced the approval' })
  @Property({ type: 'uuid', nullable: true })
  pointRuleId: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) reviewReason: string | null = null;
  @Field(() => ID, { nullable: true }) @Property({ type: 'uuid', nullable: true }) reviewById: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) shopId: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) categoryId: string | null = null;
  @Field(() => String, { nullable: true, description: 'Id of the extracted receipt (automatic verification)' })
  @Property({ type: 'text', nullable: true })
  receiptId: string | null = null;
  @Field(() => ID, { nullable: true, description: 'The ledger entry the approval wrote' })
  @Property({ type: 'uuid', nullable: true })
  pointTransactionId: string | null = null;
  @Field() @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field() @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}
