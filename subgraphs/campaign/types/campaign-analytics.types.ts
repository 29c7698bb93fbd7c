import { IsIn, IsOptional, Matches } from 'class-validator';
import { ArgsType, Field, Float, ID, Int, ObjectType } from 'type-graphql';

export const GROUPS = ['day', 'week', 'month'] as const;
const DATE_OR_TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;

@ArgsType()
export class CampaignAnalyticsArgs {
  @Field(() => ID) id: string;
  @Field(() => String, { nullable: true, description: 'From this date or time (default: the campaign start)' })
  @IsOptional()
  @Matches(DATE_OR_TIMESTAMP, { message: 'date_from is an ISO 8601 timestamp or a date YYYY-MM-DD' })
  dateFrom?: string;
  @Field(() => String, { nullable: true, description: 'Up to this date or time, a bare date covering its day (default: the campaign end)' })
  @IsOptional()
  @Matches(DATE_OR_TIMESTAMP, { message: 'date_to is an ISO 8601 timestamp or a date YYYY-MM-DD' })
  dateTo?: string;
  @Field(() => String, { nullable: true, description: 'day (default), week or month' })
  @IsOptional()
  @IsIn(GROUPS, { message: `group_by must be one of ${GROUPS.join(', ')}` })
  groupBy?: string;
}

@ObjectType()
export class CampaignMetrics {
  @Field(() => Int, { description: 'Participations joined in the period' }) participants: number;
  @Field(() => Int, { description: 'Participations completed in the period' }) conversions: number;
  @Field(() => Float, { description: 'conversions / participants, 0 to 1' }) conversionRate: number;
  @Field(() => Float, { description: "Participants' purchases inside the window after joining, in the period" }) revenue: number;
  @Field(() => Float, { description: 'revenue / those purchases' }) averageOrderValue: number;
}

@ObjectType()
export class CampaignDateMetrics extends CampaignMetrics {
  @Field(() => String, { description: 'The period’s first day, YYYY-MM-DD (weeks start on Monday)' }) date: string;
}

@ObjectType({ description: "A campaign's participation and revenue figures" })
export class CampaignAnalytics {
  @Field(() => ID) campaignId: string;
  @Field(() => CampaignMetrics) metrics: CampaignMetrics;
  @Field(() => [CampaignDateMetrics]) byDate: CampaignDateMetrics[];
}
