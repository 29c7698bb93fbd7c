import { Migration } from '@mikro-orm/migrations';
import { memberProjectionSql } from '../../../core/member-projection';

/**
 * Point's projection of which members exist (`point.known_member`), kept from auth's `customer.created`
 * and `customer.deleted`: awards and purchases ask auth only about a member it does not hold. Empty
 * here; the members that already exist are filled in through the gateway once the domain runs.
 */
export class Migration20261203PointKnownMembers extends Migration {
  async up(): Promise<void> {
    this.addSql(memberProjectionSql('point'));
  }
}
