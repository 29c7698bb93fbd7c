import { IsBoolean, IsDate, IsEnum, IsIn, IsInt, IsObject, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { GraphQLJSON } from 'graphql-scalars';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageType } from '../../../core/pagination';
import { given } from '../../../core/validation';
import { InAppNotification, NotificationFormat, NotificationType, PointSubtype, TierSubtype } from '../entities/in-app-notification';

export const InAppNotificationPage = PageType(InAppNotification, 'InAppNotification');

const MAX_TITLE = 255;
const MAX_CONTENT = 20000;

/** POST /in-apps: the notification of one member; titles and contents optional, the metadata of its kind. */
@InputType()
export class CreateInAppNotificationInput {
  @Field(() => ID) @IsUUID() memberId: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_TITLE) title_en?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_TITLE) title_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_TITLE) title_cn?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_CONTENT) content_en?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_CONTENT) content_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_CONTENT) content_cn?: string | null;
  @Field(() => NotificationFormat, { nullable: true, description: 'raw unless given' }) @IsOptional() @IsEnum(NotificationFormat) format?: NotificationFormat;
  @Field(() => NotificationType, { nullable: true, description: 'news unless given' }) @IsOptional() @IsEnum(NotificationType) type?: NotificationType;
  @Field(() => PointSubtype, { nullable: true, description: 'Only with type points' }) @IsOptional() @IsEnum(PointSubtype) pointSubtype?: PointSubtype | null;
  @Field(() => TierSubtype, { nullable: true, description: 'Only with type tier' }) @IsOptional() @IsEnum(TierSubtype) tierSubtype?: TierSubtype | null;
  @Field(() => GraphQLJSON, { nullable: true, description: 'The fields of the kind (the subtype, else the type), spec Part 2' })
  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown> | null;
}

/** PUT /in-apps/:id: the given fields change, an explicit null clears an optional one; the kind rules apply to the result. */
@InputType()
export class UpdateInAppNotificationInput {
  @Field(() => ID, { nullable: true }) @ValidateIf(given('memberId')) @IsUUID() memberId?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_TITLE) title_en?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_TITLE) title_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_TITLE) title_cn?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_CONTENT) content_en?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_CONTENT) content_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(MAX_CONTENT) content_cn?: string | null;
  @Field(() => NotificationFormat, { nullable: true }) @ValidateIf(given('format')) @IsEnum(NotificationFormat) format?: NotificationFormat;
  @Field(() => NotificationType, { nullable: true }) @ValidateIf(given('type')) @IsEnum(NotificationType) type?: NotificationType;
  @Field(() => PointSubtype, { nullable: true }) @IsOptional() @IsEnum(PointSubtype) pointSubtype?: PointSubtype | null;
  @Field(() => TierSubtype, { nullable: true }) @IsOptional() @IsEnum(TierSubtype) tierSubtype?: TierSubtype | null;
  @Field(() => GraphQLJSON, { nullable: true }) @IsOptional() @IsObject() metadata?: Record<string, unknown> | null;
}

export const READ_FILTERS = ['true', 'false', 'all'] as const;
export type ReadFilter = (typeof READ_FILTERS)[number];
export const DATE_FIELDS = ['createdAt', 'updatedAt'] as const;
export type DateField = (typeof DATE_FIELDS)[number];

/** GET /in-apps/me: a member's own notifications, newest first (limit 20 unless given), filtered. */
@ArgsType()
export class MyInAppNotificationListArgs {
  @Field(() => Int, { defaultValue: 1 }) @IsInt() @Min(1) page: number = 1;
  @Field(() => Int, { defaultValue: 20 }) @IsInt() @Min(1) @Max(100) limit: number = 20;
  @Field(() => String, { nullable: true, description: 'true: read only; false: unread only; all (or absent): both' })
  @IsOptional()
  @IsIn(READ_FILTERS)
  read?: ReadFilter;
  @Field(() => NotificationFormat, { nullable: true }) @IsOptional() @IsEnum(NotificationFormat) format?: NotificationFormat;
  @Field(() => NotificationType, { nullable: true }) @IsOptional() @IsEnum(NotificationType) type?: NotificationType;
  @Field(() => String, { nullable: true, description: 'Part of a title or a content, in any language' }) @IsOptional() @IsString() @MaxLength(255) search?: string;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'At or after this time (of dateField)' }) @IsOptional() @IsDate() dateFrom?: Date;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'At or before this time (of dateField)' }) @IsOptional() @IsDate() dateTo?: Date;
  @Field(() => String, { nullable: true, description: 'createdAt (default) or updatedAt: what dateFrom and dateTo bound' })
  @IsOptional()
  @IsIn(DATE_FIELDS)
  dateField?: DateField;
}

/** GET /in-apps: every member's notifications, or one member's. */
@ArgsType()
export class InAppNotificationListArgs extends MyInAppNotificationListArgs {
  @Field(() => ID, { nullable: true }) @IsOptional() @IsUUID() memberId?: string;
}

/** GET /in-apps/me/recent: the newest few (10 unless given). */
@ArgsType()
export class RecentInAppNotificationArgs {
  @Field(() => Int, { defaultValue: 10 }) @IsInt() @Min(1) @Max(100) limit: number = 10;
}

/** A notification by id: any string; one that names no live notification (or another member's, for a member) is 404. */
@ArgsType()
export class InAppNotificationIdArgs {
  @Field(() => ID) @IsString() @MinLength(1) @MaxLength(256) id: string;
}

@ArgsType()
export class MarkInAppNotificationReadArgs extends InAppNotificationIdArgs {
  @Field(() => Boolean, { description: 'true marks it read (readAt set once), false unread again' }) @IsBoolean() read: boolean;
}

@ObjectType()
export class UnreadCount {
  @Field(() => Int) unreadCount: number;
}

@ObjectType()
export class ReadAllResult {
  @Field(() => Int, { description: 'How many unread notifications became read' }) updatedCount: number;
}
