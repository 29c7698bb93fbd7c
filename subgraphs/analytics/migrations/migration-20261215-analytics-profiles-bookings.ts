import { Migration } from '@mikro-orm/migrations';

/**
 * Profiles kept current (`customer.updated`; `customer.deleted` erases them), bookings that can be
 * cancelled (`booking.cancelled` takes a booking back from the day it was made), and the indexes of
 * the reads that scanned: a campaign's revenue (purchases in its window) and the dashboard's
 * conversions (completions in the period).
 */
export class Migration20261215AnalyticsProfilesBookings extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      -- When the profile shown (name, e-mail, phone) was written: an older event never overwrites a newer one.
      alter table analytics.customer add column profile_at timestamptz;
      update analytics.customer set profile_at = registered_at;

      -- The bookings made (booking.created), by the UTC day they were made, and their cancellation.
      create table analytics.booking (
        booking_id text primary key,
        customer_id uuid not null,
        booked_day date not null,
        cancelled_at timestamptz
      );

      create index purchase_time_idx on analytics.purchase (occurred_at);
      create index campaign_participant_completed_idx on analytics.campaign_participant (completed_at) where completed_at is not null;
    `);
  }
}
