import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Access, Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { LocaleArgs } from '../../../core/i18n';
import { NotificationContext } from '../context';
import { NOTIFICATION } from '../contract';
import { InAppNotification } from '../entities/in-app-notification';
import {
  CreateInAppNotificationInput,
  InAppNotificationIdArgs,
  InAppNotificationListArgs,
  InAppNotificationPage,
  MarkInAppNotificationReadArgs,
  MyInAppNotificationListArgs,
  ReadAllResult,
  RecentInAppNotificationArgs,
  UnreadCount,
  UpdateInAppNotificationInput,
} from '../types/in-app-notification.types';

/** In-app notifications: notification:manage writes and lists them; a member reads and marks its own. */
@Resolver(() => InAppNotification)
export class InAppNotificationResolver {
  @Authorized(NOTIFICATION.permissions.manage)
  @Mutation(() => InAppNotification, { description: 'Writes an unread notification for a member; 400 with every field that breaks a rule' })
  createInAppNotification(@Arg('input') input: CreateInAppNotificationInput, @Ctx() ctx: NotificationContext) {
    return ctx.services.inApps.create(input);
  }

  @Authorized(NOTIFICATION.permissions.manage)
  @Query(() => InAppNotificationPage, { description: "Every member's live notifications, newest first, filtered" })
  inAppNotifications(@Args() args: InAppNotificationListArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: NotificationContext) {
    return ctx.services.inApps.list(args, locale);
  }

  @Authorized(Access.member)
  @Query(() => InAppNotificationPage, { description: "The caller's own live notifications, newest first, filtered" })
  myInAppNotifications(@Args() args: MyInAppNotificationListArgs, @Args() { locale }: LocaleArgs, @Caller() member: Principal, @Ctx() ctx: NotificationContext) {
    return ctx.services.inApps.list({ ...args, memberId: member.id }, locale);
  }

  @Authorized(Access.member)
  @Query(() => [InAppNotification], { description: "The caller's newest notifications" })
  myRecentInAppNotifications(@Args() { limit }: RecentInAppNotificationArgs, @Args() { locale }: LocaleArgs, @Caller() member: Principal, @Ctx() ctx: NotificationContext) {
    return ctx.services.inApps.recent(member.id, limit, locale);
  }

  @Authorized(Access.member)
  @Query(() => UnreadCount, { description: "How many of the caller's live notifications are unread" })
  async myUnreadInAppNotificationCount(@Caller() member: Principal, @Ctx() ctx: NotificationContext): Promise<UnreadCount> {
    return { unreadCount: await ctx.services.inApps.unreadCount(member.id) };
  }

  @Authorized(Access.member, NOTIFICATION.permissions.manage)
  @Query(() => InAppNotification, { description: "One live notification: notification:manage reads any, a member its own (another member's is 404)" })
  inAppNotification(@Args() { id }: InAppNotificationIdArgs, @Args() { locale }: LocaleArgs, @Caller() caller: Principal, @Ctx() ctx: NotificationContext) {
    return ctx.services.inApps.get(id, caller, locale);
  }

  @Authorized(NOTIFICATION.permissions.manage)
  @Mutation(() => InAppNotification, { description: 'Changes the given fields of a live notification; the kind rules apply to the result' })
  updateInAppNotification(@Args() { id }: InAppNotificationIdArgs, @Arg('input') input: UpdateInAppNotificationInput, @Ctx() ctx: NotificationContext) {
    return ctx.services.inApps.update(id, input);
  }

  @Authorized(Access.member, NOTIFICATION.permissions.manage)
  @Mutation(() => InAppNotification, { description: "Marks a notification read or unread: its member, or notification:manage (another member's is 404)" })
  markInAppNotificationRead(@Args() { id, read }: MarkInAppNotificationReadArgs, @Caller() caller: Principal, @Ctx() ctx: NotificationContext) {
    return ctx.services.inApps.markRead(id, read, caller);
  }

  @Authorized(Access.member)
  @Mutation(() => ReadAllResult, { description: "Marks every unread notification of the caller read" })
  markAllMyInAppNotificationsRead(@Caller() member: Principal, @Ctx() ctx: NotificationContext) {
    return ctx.services.inApps.readAll(member.id);
  }

  @Authorized(NOTIFICATION.permissions.manage)
  @Mutation(() => InAppNotification, { description: 'Soft-deletes a live notification: it leaves every read, list and count' })
  deleteInAppNotification(@Args() { id }: InAppNotificationIdArgs, @Ctx() ctx: NotificationContext) {
    return ctx.services.inApps.softDelete(id);
  }
}
