import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

export const RewardCodeStatus = graphqlEnum('RewardCodeStatus', ['AVAILABLE', 'USED', 'EXPIRED'], 'USED once a staff member used it; EXPIRED past expiredAt unused; AVAILABLE otherwise');
export type RewardCodeStatus = EnumValue<typeof RewardCodeStatus>;

/**
 * A reward code (spec Part 1, Reward code): what a member holds after redeeming a catalog, used once at
 * a store before `expiredAt`. Issued by a redemption (at most one code per redemption), never deleted.
 */
@ObjectType()
@Entity({ tableName: 'reward_code' })
export class RewardCode {
  [OptionalProps]?: 'staffId' | 'usedAt' | 'expirationNotifiedAt' | 'redemptionId' | 'createdAt' | 'updatedAt' | 'status';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field({ description: '6 characters of an alphabet without look-alikes (no 0/O, 1/I/L, U)' }) @Property({ type: 'text' }) code: string;
  @Field(() => ID) @Property({ type: 'uuid' }) rewardId: string;
  @Field(() => ID) @Property({ type: 'uuid' }) rewardCatalogId: string;
  @Field(() => ID) @Property({ type: 'uuid' }) memberId: string;
  @Property({ type: 'uuid', nullable: true }) redemptionId: string | null = null;
  @Field(() => String, { nullable: true, description: 'The staff member who marked it used' }) @Property({ type: 'text', nullable: true }) staffId: string | null = null;
  @Field(() => GraphQLISODateTime, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) usedAt: Date | null = null;
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) expiredAt: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) expirationNotifiedAt: Date | null = null;
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();

  @Field(() => RewardCodeStatus)
  get status(): RewardCodeStatus {
    if (this.usedAt) return RewardCodeStatus.USED;
    return this.expiredAt.getTime() <= Date.now() ? RewardCodeStatus.EXPIRED : RewardCodeStatus.AVAILABLE;
  }
}
