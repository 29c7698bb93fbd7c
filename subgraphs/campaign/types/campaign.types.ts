import { IsIn, IsOptional, Matches } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, ID, InputType } from 'type-graphql';
import { PageArgs, PageType } from '../../../core/pagination';
import { Campaign, CAMPAIGN_STATUSES, CAMPAIGN_TYPES } from '../entities/campaign';
import { Participant, PARTICIPANT_STATUSES } from '../entities/participant';

const DATE_OR_TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;
const DATE_MESSAGE = (field: string) => `${field} is an ISO 8601 timestamp or a date YYYY-MM-DD`;

/** Fields are checked by the service, all at once (every bad field named), hence all optional here. */
@InputType({ description: 'A campaign to create (as a draft)' })
export class CreateCampaignInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true, description: CAMPAIGN_TYPES.join(', ') }) type?: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601 timestamp or YYYY-MM-DD' }) startDate?: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601 timestamp or YYYY-MM-DD (a bare date: the end of that day, UTC); after startDate' }) endDate?: string | null;
  @Field(() => ID, { nullable: true, description: 'A live segment of the cluster domain' }) targetSegmentId?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: '{type: points|reward, value, unit}' }) reward?: Record<string, unknown> | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: '{minPurchase, maxUses, perCustomerLimit}' }) rules?: Record<string, unknown> | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: '{banner, terms}' }) content?: Record<string, unknown> | null;
}

@InputType({ description: 'What to change of a campaign (absent fields stay)' })
export class UpdateCampaignInput extends CreateCampaignInput {}

@ArgsType()
export class CampaignListArgs extends PageArgs {
  @Field(() => String, { nullable: true }) @IsOptional() @IsIn(CAMPAIGN_STATUSES, { message: `status must be one of ${CAMPAIGN_STATUSES.join(', ')}` }) status?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsIn(CAMPAIGN_TYPES, { message: `type must be one of ${CAMPAIGN_TYPES.join(', ')}` }) type?: string;
  @Field(() => String, { nullable: true, description: 'Campaigns running at or after (ends at or after)' }) @IsOptional() @Matches(DATE_OR_TIMESTAMP, { message: DATE_MESSAGE('date_from') }) dateFrom?: string;
  @Field(() => String, { nullable: true, description: 'Campaigns running at or before (starts at or before; a bare date covers its day)' })
  @IsOptional()
  @Matches(DATE_OR_TIMESTAMP, { message: DATE_MESSAGE('date_to') })
  dateTo?: string;
}

@ArgsType()
export class ParticipantListArgs extends PageArgs {
  /** Any string: one that is no id finds no campaign (404), as `campaign(id)` does. */
  @Field(() => ID) campaignId: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsIn(PARTICIPANT_STATUSES, { message: `status must be one of ${PARTICIPANT_STATUSES.join(', ')}` }) status?: string;
}

export const CUSTOMER_CAMPAIGN_STATUSES = ['active', 'completed', 'ended'] as const;

@ArgsType()
export class CustomerCampaignListArgs extends PageArgs {
  @Field(() => ID) customerId: string;
  @Field(() => String, { nullable: true, description: 'active (joined, running), completed (target reached), ended (campaign ended before completion)' })
  @IsOptional()
  @IsIn(CUSTOMER_CAMPAIGN_STATUSES, { message: `status must be one of ${CUSTOMER_CAMPAIGN_STATUSES.join(', ')}` })
  status?: string;
}

@ArgsType()
export class JoinCampaignArgs {
  @Field(() => ID) campaignId: string;
  @Field(() => ID, { nullable: true }) customerId?: string | null;
}

@ArgsType()
export class CampaignIdArgs {
  @Field(() => ID) id: string;
}

export const CampaignPage = PageType(Campaign, 'Campaign');
export const ParticipantPage = PageType(Participant, 'Participant');
