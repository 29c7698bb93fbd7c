import { timeOrderedId } from '../../../core/ids';
import { Entity, Enum, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Float, ID, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

export const PointActionType = graphqlEnum('PointActionType', ['EARN', 'SPEND', 'EXPIRE']);
export type PointActionType = EnumValue<typeof PointActionType>;

export const PointSource = graphqlEnum('PointSource', ['Manual', 'Reward', 'Campaign', 'Purchase']);
export type PointSource = EnumValue<typeof PointSource>;

/**
 * One ledger entry. Append-only: written with the balance change in one transaction, never updated.
 * Amounts are numeric in the database and decimal strings here; GraphQL serializes them as numbers.
 */
@ObjectType()
@Entity({ tableName: 'point_transaction' })
export class PointTransaction {
  [OptionalProps]?: 'purchaseAmount' | 'shopId' | 'categoryId' | 'note' | 'sourceBy' | 'requestTicketId' | 'receiptVerificationId' | 'referenceId' | 'metadata' | 'createdAt' | 'updatedAt';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = timeOrderedId();
  @Field(() => ID) @Property({ type: 'uuid' }) memberId: string;
  @Field(() => PointActionType) @Enum({ items: () => PointActionType }) actionType: PointActionType;
  @Field(() => Float) @Property({ type: 'decimal' }) amount: string;
  @Field(() => Float) @Property({ type: 'decimal' }) purchaseAmount: string = '0';
  @Field(() => String, { nullable: true }) @Property({ nullable: true }) shopId: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ nullable: true }) categoryId: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) note: string | null = null;
  @Field(() => PointSource, { nullable: true }) @Enum({ items: () => PointSource, nullable: true }) sourceBy: PointSource | null = null;
  @Field(() => Float) @Property({ type: 'decimal' }) balanceAfter: string;
  @Field(() => ID, { nullable: true }) @Property({ type: 'uuid', nullable: true }) requestTicketId: string | null = null;
  @Field(() => ID, { nullable: true }) @Property({ type: 'uuid', nullable: true }) receiptVerificationId: string | null = null;
  @Field(() => String, { nullable: true, description: "An award's own transaction id, given by its caller (unique per member)" })
  @Property({ type: 'text', nullable: true })
  referenceId: string | null = null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'What the caller of an award kept with it' })
  @Property({ type: 'jsonb', nullable: true })
  metadata: Record<string, unknown> | null = null;
  @Field() @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field() @Property({ type: 'timestamptz' }) updatedAt: Date = new Date();
}
