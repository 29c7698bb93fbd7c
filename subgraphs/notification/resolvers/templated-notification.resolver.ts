import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { NotificationContext } from '../context';
import { NOTIFICATION } from '../contract';
import { InAppNotification } from '../entities/in-app-notification';
import { InAppNotificationTemplate } from '../services/notification-templates';
import { TemplatedInAppNotificationInput } from '../types/templated-notification.types';

/** The convenience endpoints: a notification of one kind with its texts generated in every language. */
@Resolver(() => InAppNotification)
export class TemplatedNotificationResolver {
  @Authorized(NOTIFICATION.permissions.manage)
  @Mutation(() => InAppNotification, { description: "Writes an unread notification of the template's kind from its fields, title and content generated in en, th and cn" })
  createTemplatedInAppNotification(
    @Arg('template', () => InAppNotificationTemplate) template: InAppNotificationTemplate,
    @Arg('input') input: TemplatedInAppNotificationInput,
    @Ctx() ctx: NotificationContext,
  ) {
    return ctx.services.templated.create(template, input);
  }
}
