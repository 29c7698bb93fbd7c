import { Migration } from '@mikro-orm/migrations';
import { consumerTablesSql } from '../../../core/events/event-consumer';

/**
 * v1 customers are members (contract section 5): members gain `email` (unique among members whatever
 * its case; the list's search matches it, through a trigram index like the name's) and `language` (a
 * BCP 47 locale tag). Birth date, gender and address existed already.
 * `member_tier` is auth's projection of each member's current tier, kept from the cluster's
 * `customer.tier_changed` events (auth's first consumer, hence the consumer tables), so that the member
 * list filters by tier without reading the cluster's tables.
 */
export class Migration20261126CustomerFields extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      alter table auth.member add column email text, add column language text;
      create unique index member_email_lower_uniq on auth.member (lower(email)) where email is not null;
      create index member_email_trgm_idx on auth.member using gin (email public.gin_trgm_ops) where deleted_at is null;
      create table auth.member_tier (
        member_id uuid primary key,
        tier_id text not null,
        changed_at timestamptz not null
      );
      create index member_tier_tier_idx on auth.member_tier (tier_id, member_id);
      ${consumerTablesSql('auth')}
    `);
  }
}
