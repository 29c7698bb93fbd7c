import { Migration } from '@mikro-orm/migrations';
import { consumerTablesSql } from '../../../core/events/event-consumer';
import { memberProjectionSql } from '../../../core/member-projection';

/**
 * Booking's projection of which members exist (`booking.known_member`), kept from auth's
 * `customer.created` and `customer.deleted`: a booking asks auth only about a member it does not hold.
 * Empty here; the members that already exist are filled in through the gateway once the domain runs.
 * With the consumer-side tables, this being the booking domain's first consumer.
 */
export class Migration20261203BookingKnownMembers extends Migration {
  async up(): Promise<void> {
    this.addSql(memberProjectionSql('booking'));
    this.addSql(consumerTablesSql('booking'));
  }
}
