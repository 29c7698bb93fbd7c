import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { PageArgs } from '../../../core/pagination';
import { WebhookContext } from '../context';
import { WEBHOOK } from '../contract';
import { Webhook } from '../entities/webhook';
import { WebhookDelivery } from '../entities/webhook-delivery';
import { CreateWebhookInput, DeliveryListArgs, RedeliverArgs, UpdateWebhookInput, WebhookDeliveryPage, WebhookIdArgs, WebhookPage } from '../types/webhook.types';

/** Webhooks and their delivery logs (admin: webhook:manage); the REST v1 routes and the admin UI use the same operations. */
@Resolver(() => Webhook)
export class WebhookResolver {
  @Authorized(WEBHOOK.permissions.manage)
  @Mutation(() => Webhook, { description: 'Registers a webhook; its secret is shown in full only in this answer. 400 on every bad field' })
  createWebhook(@Arg('input') input: CreateWebhookInput, @Ctx() ctx: WebhookContext) {
    return ctx.services.webhooks.create(input);
  }

  @Authorized(WEBHOOK.permissions.manage)
  @Query(() => WebhookPage, { description: 'Webhooks, newest first' })
  webhooks(@Args() args: PageArgs, @Ctx() ctx: WebhookContext) {
    return ctx.services.webhooks.list(args);
  }

  @Authorized(WEBHOOK.permissions.manage)
  @Query(() => Webhook)
  webhook(@Args() { id }: WebhookIdArgs, @Ctx() ctx: WebhookContext) {
    return ctx.services.webhooks.get(id);
  }

  @Authorized(WEBHOOK.permissions.manage)
  @Mutation(() => Webhook, { description: 'Changes url, events or active (true sends a failed webhook its held deliveries; false: it receives and keeps nothing)' })
  updateWebhook(@Args() { id }: WebhookIdArgs, @Arg('input') input: UpdateWebhookInput, @Ctx() ctx: WebhookContext) {
    return ctx.services.webhooks.update(id, input);
  }

  @Authorized(WEBHOOK.permissions.manage)
  @Mutation(() => Boolean, { description: 'Deletes a webhook and its delivery log' })
  deleteWebhook(@Args() { id }: WebhookIdArgs, @Ctx() ctx: WebhookContext) {
    return ctx.services.webhooks.delete(id);
  }

  @Authorized(WEBHOOK.permissions.manage)
  @Query(() => WebhookDeliveryPage, { description: "A webhook's deliveries, newest first" })
  webhookDeliveries(@Args() args: DeliveryListArgs, @Ctx() ctx: WebhookContext) {
    return ctx.services.webhooks.deliveries(args);
  }

  @Authorized(WEBHOOK.permissions.manage)
  @Mutation(() => WebhookDelivery, { description: 'Sends the delivery\'s event again (same id); 409 when the webhook is not active or the delivery is pending' })
  redeliverWebhookDelivery(@Args() { webhookId, deliveryId }: RedeliverArgs, @Ctx() ctx: WebhookContext) {
    return ctx.services.webhooks.redeliver(webhookId, deliveryId);
  }
}
