import { IsIn, IsOptional } from 'class-validator';
import { ArgsType, Field, ID, InputType } from 'type-graphql';
import { PageArgs, PageType } from '../../../core/pagination';
import { DELIVERY_STATUSES, WebhookDelivery } from '../entities/webhook-delivery';
import { Webhook } from '../entities/webhook';

/** Fields are checked by the service, all at once (the URL's host is resolved there), hence all optional here. */
@InputType({ description: 'A webhook to register' })
export class CreateWebhookInput {
  @Field(() => String, { nullable: true, description: 'https URL (http and private addresses only when WEBHOOK_ALLOW_PRIVATE_TARGETS)' }) url?: string | null;
  @Field(() => [String], { nullable: true, description: 'Event types of Part 3, or ["*"]' }) events?: string[] | null;
  @Field(() => String, { nullable: true, description: '16 to 256 printable characters; generated unless given' }) secret?: string | null;
}

@InputType({ description: 'What to change of a webhook' })
export class UpdateWebhookInput {
  @Field(() => String, { nullable: true }) url?: string | null;
  @Field(() => [String], { nullable: true }) events?: string[] | null;
  @Field(() => Boolean, { nullable: true, description: 'true re-activates (a failed webhook is sent its held deliveries); false switches it off (it receives and keeps nothing)' })
  active?: boolean | null;
}

@ArgsType()
export class WebhookIdArgs {
  @Field(() => ID) id: string;
}

@ArgsType()
export class DeliveryListArgs extends PageArgs {
  @Field(() => ID) webhookId: string;
  @Field(() => String, { nullable: true, description: DELIVERY_STATUSES.join(', ') })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES, { message: `status must be one of ${DELIVERY_STATUSES.join(', ')}` })
  status?: string;
}

@ArgsType()
export class RedeliverArgs {
  @Field(() => ID) webhookId: string;
  @Field(() => ID) deliveryId: string;
}

export const WebhookPage = PageType(Webhook, 'Webhook');
export const WebhookDeliveryPage = PageType(WebhookDelivery, 'WebhookDelivery');
