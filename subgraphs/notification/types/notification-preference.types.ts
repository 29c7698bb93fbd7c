import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, ObjectType } from 'type-graphql';

@ObjectType('NotificationChannelPreferences', { description: 'Channels a customer receives (in_app is always on)' })
export class ChannelPreferencesType {
  @Field() chatapp: boolean;
  @Field() sms: boolean;
  @Field() email: boolean;
}

@ObjectType('NotificationCategoryPreferences')
export class CategoryPreferencesType {
  @Field() promotions: boolean;
  @Field() loyalty: boolean;
  @Field() transactions: boolean;
  @Field() campaigns: boolean;
}

@ObjectType('NotificationQuietHours', { description: 'No message is delivered from start to end (HH:MM in timezone, else UTC); held until end' })
export class QuietHoursType {
  @Field() enabled: boolean;
  @Field() start: string;
  @Field() end: string;
  @Field(() => String, { nullable: true, description: 'IANA time zone of the customer; null: UTC' }) timezone: string | null;
}

@ObjectType({ description: "A customer's notification preferences" })
export class NotificationPreferences {
  @Field(() => ID) customerId: string;
  @Field(() => ChannelPreferencesType) channels: ChannelPreferencesType;
  @Field(() => CategoryPreferencesType) categories: CategoryPreferencesType;
  @Field(() => QuietHoursType) quietHours: QuietHoursType;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'null while the customer has the defaults' }) updatedAt: Date | null;
}

/** Checked by the service, field by field (`channels.sms`, `quietHours.start`). */
@InputType({ description: 'The preferences to change; absent keys stay' })
export class UpdateNotificationPreferencesInput {
  @Field(() => GraphQLJSONObject, { nullable: true, description: '{chatapp, sms, email} booleans' }) channels?: Record<string, unknown> | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: '{promotions, loyalty, transactions, campaigns} booleans' }) categories?: Record<string, unknown> | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: '{enabled, start, end (HH:MM), timezone (IANA)}' }) quietHours?: Record<string, unknown> | null;
}

@ArgsType()
export class CustomerIdArgs {
  @Field(() => ID) customerId: string;
}
