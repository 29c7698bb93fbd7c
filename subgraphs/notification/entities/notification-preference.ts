import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

export interface ChannelPreferences {
  chatapp: boolean;
  sms: boolean;
  email: boolean;
}
export interface CategoryPreferences {
  promotions: boolean;
  loyalty: boolean;
  transactions: boolean;
  campaigns: boolean;
}
export interface QuietHours {
  enabled: boolean;
  /** HH:MM, wall clock in `timezone`. */
  start: string;
  end: string;
  /** IANA zone of the customer; null: UTC. */
  timezone: string | null;
}

/** A customer's notification preferences (Part 3); a customer without a row has the defaults (everything on, no quiet hours). */
@Entity({ tableName: 'preference' })
export class NotificationPreference {
  @PrimaryKey({ type: 'uuid' }) customerId: string;
  @Property({ type: 'json' }) channels: ChannelPreferences;
  @Property({ type: 'json' }) categories: CategoryPreferences;
  @Property({ type: 'json' }) quietHours: QuietHours;
  @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}
