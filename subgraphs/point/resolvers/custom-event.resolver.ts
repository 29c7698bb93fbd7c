import { Arg, Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Access, Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { PageArgs, PageType } from '../../../core/pagination';
import { PointContext } from '../context';
import { POINT } from '../contract';
import { CustomEvent } from '../entities/custom-event';
import { CustomEventType } from '../entities/custom-event-type';
import { RuleApplication } from '../entities/rule-application';
import { CustomEventInput, CustomEventListArgs, CustomEventTypeInput, CustomEventTypePatch, EventTypeNameArgs } from '../types/custom-event.types';

const CustomEventTypePage = PageType(CustomEventType, 'CustomEventType');
const CustomEventPage = PageType(CustomEvent, 'CustomEvent');

/** Custom event types (point:read reads, point:rules-manage writes) and events (point:manage sends; a member reads its own). */
@Resolver(() => CustomEvent)
export class CustomEventResolver {
  @Authorized(POINT.permissions.read)
  @Query(() => CustomEventTypePage, { description: 'Declared custom event types, by name' })
  customEventTypes(@Args() args: PageArgs, @Ctx() ctx: PointContext) {
    return ctx.services.eventTypes.list(args);
  }

  @Authorized(POINT.permissions.read)
  @Query(() => CustomEventType)
  customEventType(@Args() { name }: EventTypeNameArgs, @Ctx() ctx: PointContext) {
    return ctx.services.eventTypes.get(name);
  }

  @Authorized(POINT.permissions.rulesManage)
  @Mutation(() => CustomEventType, { description: 'Declares a custom event type; 409 when the name is taken' })
  createCustomEventType(@Arg('input') input: CustomEventTypeInput, @Ctx() ctx: PointContext) {
    return ctx.services.eventTypes.create(input);
  }

  @Authorized(POINT.permissions.rulesManage)
  @Mutation(() => CustomEventType, { description: 'Changes a type; 409 when a live rule would no longer fit it' })
  updateCustomEventType(@Args() { name }: EventTypeNameArgs, @Arg('input') input: CustomEventTypePatch, @Ctx() ctx: PointContext) {
    return ctx.services.eventTypes.update(name, input);
  }

  @Authorized(POINT.permissions.rulesManage)
  @Mutation(() => CustomEventType, { description: 'Deletes a type softly; 409 while a live rule reacts to it' })
  deleteCustomEventType(@Args() { name }: EventTypeNameArgs, @Ctx() ctx: PointContext) {
    return ctx.services.eventTypes.softDelete(name);
  }

  @Authorized(POINT.permissions.manage)
  @Mutation(() => CustomEvent, { description: 'Records a custom event once per sender and eventId, with what the earning rules give it' })
  recordCustomEvent(@Arg('input') input: CustomEventInput, @Caller() caller: Principal, @Ctx() ctx: PointContext) {
    return ctx.services.customEvents.record(input, caller, ctx.requestId);
  }

  @Authorized(Access.selfBy('memberId'), POINT.permissions.read)
  @Query(() => CustomEventPage, { description: "A member's custom events, newest first (a member reads its own)" })
  memberCustomEvents(@Args() args: CustomEventListArgs, @Ctx() ctx: PointContext) {
    return ctx.services.customEvents.ofMember(args);
  }

  @FieldResolver(() => [RuleApplication], { description: 'The rule versions that gave it points' })
  applications(@Root() event: CustomEvent, @Ctx() ctx: PointContext) {
    return ctx.services.earningRules.applicationsOf('custom_event', event.id);
  }
}
