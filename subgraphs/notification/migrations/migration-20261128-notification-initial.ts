import { Migration } from '@mikro-orm/migrations';
import { outboxChainSql, outboxTableSql } from '../../../core/events/outbox-event';

/**
 * The notification schema: in-app notifications and the outbox. A member's lists and unread count
 * read the member's live rows newest first; the staff list reads every live row.
 */
export class Migration20261128NotificationInitial extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table notification.in_app_notification (
        id uuid primary key,
        member_id uuid not null,
        title_en varchar(255),
        title_th varchar(255),
        title_cn varchar(255),
        content_en text,
        content_th text,
        content_cn text,
        format text not null default 'raw' check (format in ('raw', 'html')),
        type text not null default 'news' check (type in ('promotion', 'points', 'tier', 'news', 'badge')),
        point_subtype text check (point_subtype in ('point_received', 'receipt_error', 'receipt_processing', 'point_nearly_expire', 'point_expired')),
        tier_subtype text check (tier_subtype in ('tier_upgraded', 'tier_adjusted', 'tier_renewal_reminder')),
        metadata jsonb,
        read_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz,
        check (point_subtype is null or type = 'points'),
        check (tier_subtype is null or type = 'tier')
      );
      create index in_app_notification_member_idx on notification.in_app_notification (member_id, created_at desc, id) where deleted_at is null;
      create index in_app_notification_unread_idx on notification.in_app_notification (member_id) where deleted_at is null and read_at is null;
      create index in_app_notification_list_idx on notification.in_app_notification (created_at desc, id) where deleted_at is null;

      ${outboxTableSql('notification')}
      ${outboxChainSql('notification')}
    `);
  }
}
