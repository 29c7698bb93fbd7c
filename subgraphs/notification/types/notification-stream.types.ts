import { IsOptional, Matches } from 'class-validator';
import { ArgsType, Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum, EnumValue } from '../../../core/graphql/enum';
import { InAppNotification } from '../entities/in-app-notification';

export const NotificationStreamEventType = graphqlEnum(
  'NotificationStreamEventType',
  ['connected', 'new_notification', 'notification_read'],
  'What happened on a member\'s notification stream: it opened, a notification was created, notifications were marked read',
);
export type NotificationStreamEventType = EnumValue<typeof NotificationStreamEventType>;

/** `notification_read`: one notification, or (`notificationId` null) every unread one of the member at once. */
@ObjectType()
export class NotificationReadChange {
  @Field(() => ID, { nullable: true, description: 'null when the member read all its unread notifications at once' }) notificationId: string | null;
  @Field(() => Int) updatedCount: number;
  @Field(() => GraphQLISODateTime) readAt: Date;
}

/** One event of a member's notification stream; `id` orders a member's events (resume after it with `lastEventId`). */
@ObjectType()
export class NotificationStreamEvent {
  @Field(() => String, { nullable: true, description: "The event's position in the member's stream; null on connected" }) id: string | null;
  @Field(() => NotificationStreamEventType) type: NotificationStreamEventType;
  @Field(() => GraphQLISODateTime) timestamp: Date;
  @Field(() => InAppNotification, { nullable: true, description: 'new_notification: the notification, in `locale`' }) notification: InAppNotification | null;
  @Field(() => NotificationReadChange, { nullable: true, description: 'notification_read: what was read' }) read: NotificationReadChange | null;
}

/** The stream's arguments: where to resume (the last event id the client received). */
@ArgsType()
export class NotificationEventsArgs {
  @Field(() => String, { nullable: true, description: 'Replays the events after this one (SSE Last-Event-ID)' })
  @IsOptional()
  @Matches(/^\d{1,18}$/, { message: 'lastEventId must be an event id' })
  lastEventId?: string;
}
