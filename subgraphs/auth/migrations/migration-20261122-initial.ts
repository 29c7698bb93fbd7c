import { Migration } from '@mikro-orm/migrations';

/** The auth schema: roles, staff, sessions, API keys, members and consent versions. */
export class Migration20261122Initial extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table auth.role (
        id uuid primary key default gen_random_uuid(),
        key text not null unique,
        name_en text not null,
        name_th text,
        name_cn text,
        permissions text[] not null default '{}',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      insert into auth.role (key, name_en, name_th, name_cn, permissions) values
        ('admin', 'Administrator', 'ผู้ดูแลระบบ', '管理员', '{*}'),
        ('marketing', 'Marketing', 'การตลาด', '市场营销', '{member:read,member:manage,consent:manage,role:read}'),
        ('tenant', 'Tenant', 'ผู้เช่า', '租户', '{member:read,role:read}'),
        ('customer', 'Customer', 'ลูกค้า', '顾客', '{}');

      create table auth.staff (
        id uuid primary key,
        email text not null,
        firstname varchar(256) not null,
        lastname varchar(256) not null,
        phone_number varchar(256),
        role_id uuid not null references auth.role (id),
        store_id text,
        status text not null check (status in ('ACTIVE', 'INACTIVE', 'WAIT_FOR_FIRST_ACTIVE')),
        locale text not null check (locale in ('en', 'th', 'cn')),
        password_hash text,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz
      );
      create unique index staff_email_live_unique on auth.staff (lower(email)) where deleted_at is null;
      create index staff_role_idx on auth.staff (role_id);

      create table auth.password_reset_session (
        id uuid primary key,
        staff_id uuid not null references auth.staff (id),
        channel text not null check (channel in ('EMAIL', 'SMS')),
        code_hash text not null,
        failed_attempts int not null default 0,
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null
      );

      create table auth.service_api_key (
        id uuid primary key,
        name varchar(256) not null,
        role_id uuid not null references auth.role (id),
        prefix text not null,
        key_hash text not null unique,
        created_by_id uuid not null,
        expires_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz not null
      );
      create index service_api_key_creator_idx on auth.service_api_key (created_by_id, created_at desc);

      create table auth.refresh_token (
        id uuid primary key,
        family_id uuid not null,
        token_hash text not null unique,
        subject_kind text not null check (subject_kind in ('staff', 'member')),
        subject_id uuid not null,
        expires_at timestamptz not null,
        used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz not null
      );
      create index refresh_token_family_idx on auth.refresh_token (family_id);

      create table auth.member (
        id uuid primary key,
        open_id text unique,
        union_id text,
        nick_name varchar(256),
        avatar_url text,
        name varchar(100),
        phone_number varchar(20),
        gender text check (gender in ('Male', 'Female', 'Other')),
        birth_day date,
        address jsonb,
        status text not null check (status in ('PENDING', 'CHATAPP_INFO_SYNCED', 'ACTIVE', 'INACTIVE')),
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz
      );
      create index member_created_idx on auth.member (created_at desc);
      create index member_birth_day_idx on auth.member (birth_day);

      create table auth.consent_version (
        id uuid primary key,
        type text not null check (type in ('PRIVACY_POLICY', 'TERMS')),
        version text not null,
        content_en text,
        content_th text,
        content_cn text,
        url text,
        effective_at timestamptz not null,
        created_at timestamptz not null,
        unique (type, version)
      );

      create table auth.consent_acceptance (
        id uuid primary key,
        member_id uuid not null references auth.member (id),
        consent_version_id uuid not null references auth.consent_version (id),
        accepted_at timestamptz not null,
        unique (member_id, consent_version_id)
      );
    `);
  }
}
