import { Migration } from '@mikro-orm/migrations';

/** The OAuth 2.0 authorization server (contract section 3): clients, authorization codes, token families. */
export class Migration20261127OAuth extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table auth.oauth_client (
        id uuid primary key,
        client_id text not null unique,
        secret_hash text,
        name text not null,
        redirect_uris text[] not null,
        grant_types text[] not null,
        token_endpoint_auth_method text not null,
        scopes text[] not null,
        created_by_kind text not null,
        created_by_id uuid not null,
        created_at timestamptz not null
      );`);
    this.addSql(`
      create table auth.oauth_authorization_code (
        id uuid primary key,
        code_hash text not null unique,
        client_id uuid not null references auth.oauth_client (id) on delete cascade,
        staff_id uuid not null,
        redirect_uri text not null,
        scopes text[] not null,
        code_challenge text,
        code_challenge_method text,
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null
      );`);
    this.addSql(`
      create table auth.oauth_token (
        id uuid primary key,
        family_id uuid not null,
        client_id uuid not null references auth.oauth_client (id) on delete cascade,
        subject_kind text not null,
        subject_id uuid not null,
        scopes text[] not null,
        access_token_hash text not null unique,
        access_expires_at timestamptz not null,
        refresh_token_hash text unique,
        refresh_expires_at timestamptz,
        refresh_used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz not null
      );`);
    this.addSql('create index oauth_token_family_id_index on auth.oauth_token (family_id);');
  }
}
