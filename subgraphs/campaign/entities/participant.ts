import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, Float, ID, ObjectType } from 'type-graphql';
import { Campaign } from './campaign';

export const PARTICIPANT_STATUSES = ['active', 'completed', 'dropped'] as const;
export type ParticipantStatus = (typeof PARTICIPANT_STATUSES)[number];
/** What moves a participation: purchases counted (+1 each), or their amount summed (towards `minPurchase`). */
export type ParticipantMeasure = 'purchases' | 'amount';

@ObjectType({ description: "A participation's progress towards its target" })
export class ParticipantProgress {
  @Field(() => Float) current: number;
  @Field(() => Float) target: number;
  @Field(() => Float, { description: '0 to 100' }) percentage: number;
}

/**
 * One participation of a customer in a campaign. `current` and `target` are numeric strings: purchases
 * counted, or purchase amounts summed when the campaign's `minPurchase` was set at the join (then the
 * target). `target` and `measure` are fixed at the join: a later change of the rules moves neither.
 */
@ObjectType({ description: "A customer's participation in a campaign" })
@Entity({ tableName: 'participant' })
export class Participant {
  [OptionalProps]?: 'status' | 'joinedAt' | 'completedAt' | 'current' | 'rewardClaimed' | 'rewardReference' | 'updatedAt' | 'progress' | 'campaignId';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  /** Its GraphQL field is resolved by ParticipantResolver, which loads it where a query did not. */
  @ManyToOne(() => Campaign, { fieldName: 'campaign_id' }) campaign: Campaign;
  @Field(() => ID) @Property({ type: 'uuid' }) customerId: string;
  @Field(() => String, { description: PARTICIPANT_STATUSES.join(', ') }) @Property({ type: 'text' }) status: ParticipantStatus = 'active';
  @Field() @Property({ type: 'timestamptz' }) joinedAt: Date = new Date();
  @Field(() => Date, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) completedAt: Date | null = null;
  @Property({ type: 'numeric(14,2)' }) current: string = '0';
  @Property({ type: 'numeric(14,2)' }) target: string;
  @Property({ type: 'text' }) measure: ParticipantMeasure;
  @Field(() => Boolean, { description: 'Whether the reward was granted' }) @Property({ type: 'boolean' }) rewardClaimed: boolean = false;
  /** The point transaction (or reward claim) that granted the reward. */
  @Property({ type: 'text', nullable: true }) rewardReference: string | null = null;
  @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();

  @Field(() => ID)
  get campaignId(): string {
    return this.campaign.id;
  }

  @Field(() => ParticipantProgress)
  get progress(): ParticipantProgress {
    const current = Number(this.current);
    const target = Number(this.target);
    const percentage = target > 0 ? Math.min(100, Math.floor((current / target) * 10000) / 100) : 100;
    return { current, target, percentage };
  }
}
