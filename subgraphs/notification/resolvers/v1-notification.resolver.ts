import { Arg, Args, ArgsType, Authorized, Ctx, Field, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Access, Caller, Public } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { PageArgs, PageType } from '../../../core/pagination';
import { NotificationContext } from '../context';
import { NOTIFICATION } from '../contract';
import { V1Notification } from '../entities/v1-notification';
import { V1Template } from '../entities/v1-template';
import { CustomerIdArgs, NotificationPreferences, UpdateNotificationPreferencesInput } from '../types/notification-preference.types';
import { NotificationSendResult, SendNotificationArgs, V1NotificationListArgs, V1NotificationPage } from '../types/v1-notification.types';
import { CreateV1TemplateInput } from '../types/v1-template.types';

@ArgsType()
class V1NotificationIdArgs {
  @Field(() => ID) id: string;
}

@ArgsType()
class NotificationClickArgs {
  @Field(() => ID) deliveryId: string;
  @Field() signature: string;
}

const V1TemplatePage = PageType(V1Template, 'V1NotificationTemplate');

/**
 * Version-1 notifications (Part 3): marketing sends (notification:manage), staff read (notification:read),
 * customers read and change their own preferences (staff with notification:read read them; only admins
 * change them for a customer); the tracked link needs no token.
 */
@Resolver(() => V1Notification)
export class V1NotificationResolver {
  @Authorized(NOTIFICATION.permissions.manage)
  @Mutation(() => NotificationSendResult, { description: 'Sends to customers now or at scheduleAt; answered at once, sent by the job' })
  sendNotification(@Args() { input, idempotencyKey }: SendNotificationArgs, @Caller() caller: Principal, @Ctx() ctx: NotificationContext) {
    return ctx.services.v1Notifications.send('customers', input, caller, idempotencyKey);
  }

  @Authorized(NOTIFICATION.permissions.manage)
  @Mutation(() => NotificationSendResult, { description: "Sends to a segment's members (resolved when sending begins), now or at scheduleAt" })
  sendNotificationToSegment(@Args() { input, idempotencyKey }: SendNotificationArgs, @Caller() caller: Principal, @Ctx() ctx: NotificationContext) {
    return ctx.services.v1Notifications.send('segment', input, caller, idempotencyKey);
  }

  @Authorized(NOTIFICATION.permissions.read)
  @Query(() => V1NotificationPage, { description: 'v1 notifications, newest first, with their counters' })
  v1Notifications(@Args() args: V1NotificationListArgs, @Ctx() ctx: NotificationContext) {
    return ctx.services.v1Notifications.list(args);
  }

  @Authorized(NOTIFICATION.permissions.read)
  @Query(() => V1Notification, { description: 'One v1 notification with its delivery counters' })
  v1Notification(@Args() { id }: V1NotificationIdArgs, @Ctx() ctx: NotificationContext) {
    return ctx.services.v1Notifications.get(id);
  }

  @Authorized(NOTIFICATION.permissions.read)
  @Query(() => V1TemplatePage, { description: 'Notification templates by name' })
  v1NotificationTemplates(@Args() args: PageArgs, @Ctx() ctx: NotificationContext) {
    return ctx.services.v1Templates.list(args);
  }

  @Authorized(NOTIFICATION.permissions.manage)
  @Mutation(() => V1Template, { description: 'Creates a notification template; 409 on a name in use' })
  createV1NotificationTemplate(@Arg('input') input: CreateV1TemplateInput, @Ctx() ctx: NotificationContext) {
    return ctx.services.v1Templates.create(input);
  }

  @Authorized(Access.selfBy('customerId'), NOTIFICATION.permissions.read)
  @Query(() => NotificationPreferences, { description: "A customer's notification preferences; a customer reads its own" })
  notificationPreferences(@Args() { customerId }: CustomerIdArgs, @Ctx() ctx: NotificationContext) {
    return ctx.services.preferences.get(customerId);
  }

  @Authorized(Access.selfBy('customerId'), NOTIFICATION.permissions.preferencesManage)
  @Mutation(() => NotificationPreferences, { description: "Changes some of a customer's notification preferences: the customer itself, or an admin on its request" })
  updateNotificationPreferences(@Args() { customerId }: CustomerIdArgs, @Arg('input') input: UpdateNotificationPreferencesInput, @Ctx() ctx: NotificationContext) {
    return ctx.services.preferences.update(customerId, input);
  }

  @Public()
  @Mutation(() => String, { description: "A tracked link followed: counts the click once and answers the notification's action_url" })
  trackNotificationClick(@Args() { deliveryId, signature }: NotificationClickArgs, @Ctx() ctx: NotificationContext) {
    return ctx.services.engagement.click(deliveryId, signature);
  }
}
