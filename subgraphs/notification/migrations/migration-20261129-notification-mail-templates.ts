import { Migration } from '@mikro-orm/migrations';

/** Mail templates: one live template per event and version; the list reads newest first. */
export class Migration20261129NotificationMailTemplates extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table notification.mail_template (
        id uuid primary key,
        name varchar(255) not null,
        version varchar(50) not null default '1',
        event varchar(100) not null,
        subject_en varchar(255),
        subject_th varchar(255),
        subject_cn varchar(255),
        content_en text,
        content_th text,
        content_cn text,
        content_type text not null default 'html' check (content_type in ('html', 'text')),
        default_sender_id varchar(255),
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz
      );
      create unique index mail_template_event_version_uidx on notification.mail_template (event, version) where deleted_at is null;
      create index mail_template_list_idx on notification.mail_template (created_at desc, id) where deleted_at is null;
    `);
  }
}
