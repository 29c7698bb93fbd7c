import { Args, Authorized, Resolver, Root, Subscription } from 'type-graphql';
import { Access } from '../../../core/auth/access';
import { AppError, forbidden, unauthenticated } from '../../../core/errors';
import { LocaleArgs } from '../../../core/i18n';
import { NotificationContext } from '../context';
import { NotificationEventsArgs, NotificationStreamEvent } from '../types/notification-stream.types';

/** The caller's live notification stream (the REST adapter serves it as text/event-stream). */
@Resolver()
export class NotificationStreamResolver {
  @Authorized(Access.member)
  @Subscription(() => NotificationStreamEvent, {
    description: "The caller's notification events: connected, then those after lastEventId, then each new one and each read, in order",
    subscribe: ({ args, context }) => openMemberStream(args, context),
  })
  myNotificationEvents(@Root() event: NotificationStreamEvent, @Args() _resume: NotificationEventsArgs, @Args() _locale: LocaleArgs): NotificationStreamEvent {
    return event;
  }
}

/** A subscription's source is opened before any event resolves: the member is checked here (401 / 403). */
function openMemberStream(args: Record<string, any>, ctx: NotificationContext) {
  if (!ctx.principal) throw unauthenticated();
  if (ctx.principal.kind !== 'member') throw forbidden();
  if (!ctx.services.stream) throw new AppError('UNAVAILABLE', 'The notification stream is unavailable');
  return ctx.services.stream.subscribe(ctx.principal.id, { locale: args.locale ?? undefined, lastEventId: args.lastEventId ?? null });
}
