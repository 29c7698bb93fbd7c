import { Migration } from '@mikro-orm/migrations';
import { tallySql, tallyTableSql } from '../../../core/db/tally';

/**
 * A member list that stays flat with a million members: the `live_members` tally is its total, an
 * index follows its order (newest first, ties by id) over live members in both directions, and
 * trigram indexes serve the search (a case-insensitive substring of the name, nickname or phone).
 */
export class Migration20261124AuthLargeMembers extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create extension if not exists pg_trgm with schema public;
      create index member_live_order_idx on auth.member (created_at desc, id) where deleted_at is null;
      drop index auth.member_created_idx;
      create index member_name_trgm_idx on auth.member using gin (name public.gin_trgm_ops) where deleted_at is null;
      create index member_nick_name_trgm_idx on auth.member using gin (nick_name public.gin_trgm_ops) where deleted_at is null;
      create index member_phone_number_trgm_idx on auth.member using gin (phone_number public.gin_trgm_ops) where deleted_at is null;

      ${tallyTableSql('auth')}
      ${tallySql({ schema: 'auth', table: 'member', name: 'live_members', where: 'deleted_at is null' })}
    `);
  }
}
