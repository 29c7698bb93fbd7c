import { IsIn, IsOptional, Matches } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageType } from '../../../core/pagination';
import { V1_CHANNELS, V1_STATUSES, V1Notification } from '../entities/v1-notification';

const DATE_OR_TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/** A send; fields are checked by the service all at once (every bad field named), hence all optional here. */
@InputType({ description: 'A notification to send to customers (customerIds) or to a segment (segmentId), now or at scheduleAt' })
export class SendNotificationInput {
  @Field(() => [ID], { nullable: true, description: 'The customers (send); 1 to 10,000' }) customerIds?: string[] | null;
  @Field(() => ID, { nullable: true, description: 'The segment (send to segment), resolved when sending begins' }) segmentId?: string | null;
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) body?: string | null;
  @Field(() => String, { nullable: true, description: 'http(s) URL of an image' }) image?: string | null;
  @Field(() => String, { nullable: true, description: 'http(s) URL opened from the message (tracked)' }) actionUrl?: string | null;
  @Field(() => String, { nullable: true, description: `${V1_CHANNELS.join(', ')}; default the template's` }) channel?: string | null;
  @Field(() => String, { nullable: true, description: 'low, normal (default), high' }) priority?: string | null;
  @Field(() => String, { nullable: true, description: 'promotions, loyalty, transactions, campaigns: honours the customers\' category preferences' }) category?: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601 timestamp with zone; absent: now' }) scheduleAt?: string | null;
  @Field(() => String, { nullable: true, description: 'A template name: title and body come from it' }) template?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: "The template's variables" }) variables?: Record<string, unknown> | null;
}

@ObjectType({ description: 'A send accepted: sent by the job, now or at scheduledAt' })
export class NotificationSendResult {
  @Field(() => ID) notificationId: string;
  @Field() status: string;
  @Field(() => Int, { description: "The recipients now (a segment's members now; final once sending ran)" }) totalRecipients: number;
  @Field(() => GraphQLISODateTime, { nullable: true }) scheduledAt: Date | null;
}

@ArgsType()
export class V1NotificationListArgs extends PageArgs {
  @Field(() => String, { nullable: true }) @IsOptional() @IsIn(V1_STATUSES, { message: `status must be one of ${V1_STATUSES.join(', ')}` }) status?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsIn(V1_CHANNELS, { message: `channel must be one of ${V1_CHANNELS.join(', ')}` }) channel?: string;
  @Field(() => String, { nullable: true, description: 'Created at or after' }) @IsOptional() @Matches(DATE_OR_TIMESTAMP, { message: 'date_from is an ISO 8601 timestamp or a date YYYY-MM-DD' }) dateFrom?: string;
  @Field(() => String, { nullable: true, description: 'Created at or before (a bare date covers its day)' })
  @IsOptional()
  @Matches(DATE_OR_TIMESTAMP, { message: 'date_to is an ISO 8601 timestamp or a date YYYY-MM-DD' })
  dateTo?: string;
}

@ArgsType()
export class SendNotificationArgs {
  @Field(() => SendNotificationInput) input: SendNotificationInput;
  @Field(() => String, { nullable: true, description: 'Same key and body: the first answer again; another body: 409' }) idempotencyKey?: string;
}

export const V1NotificationPage = PageType(V1Notification, 'V1Notification');
