import { Migration } from '@mikro-orm/migrations';
import { outboxTableSql } from '../../../core/events/outbox-event';

/** The point schema: balances, the append-only ledger with its earned lots, tickets, receipts, shop rules. */
export class Migration20261122PointInitial extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table point.point_balance (
        member_id uuid primary key,
        point_amount numeric(20, 2) not null default 0 check (point_amount >= 0),
        purchase_amount numeric(20, 2) not null default 0 check (purchase_amount >= 0),
        updated_at timestamptz not null default now()
      );

      create table point.point_transaction (
        id uuid primary key,
        member_id uuid not null,
        action_type text not null check (action_type in ('EARN', 'SPEND', 'EXPIRE')),
        amount numeric(20, 2) not null check (amount >= 0),
        purchase_amount numeric(20, 2) not null default 0 check (purchase_amount >= 0),
        shop_id text,
        category_id text,
        note text,
        source_by text check (source_by in ('Manual', 'Reward', 'Campaign', 'Purchase')),
        balance_after numeric(20, 2) not null check (balance_after >= 0),
        request_ticket_id uuid,
        receipt_verification_id uuid,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index point_transaction_member_idx on point.point_transaction (member_id, created_at desc, id);
      create index point_transaction_created_idx on point.point_transaction (created_at);

      -- Each EARN opens a lot; SPEND consumes the oldest lots first; EXPIRE empties lots past expires_at.
      create table point.point_lot (
        id uuid primary key,
        member_id uuid not null,
        transaction_id uuid not null references point.point_transaction (id),
        amount numeric(20, 2) not null,
        remaining numeric(20, 2) not null check (remaining >= 0 and remaining <= amount),
        earned_at timestamptz not null,
        expires_at timestamptz
      );
      create index point_lot_open_idx on point.point_lot (member_id, earned_at, id) where remaining > 0;
      -- The expiry job scans by date across members; a balance read looks up one member's due lots.
      create index point_lot_expiry_idx on point.point_lot (expires_at) where remaining > 0 and expires_at is not null;
      create index point_lot_member_expiry_idx on point.point_lot (member_id, expires_at) where remaining > 0 and expires_at is not null;

      create table point.idempotency_record (
        scope text not null,
        key text not null,
        request_hash text not null,
        response jsonb,
        created_at timestamptz not null default now(),
        primary key (scope, key)
      );

      create table point.point_request_ticket (
        id uuid primary key,
        member_id uuid not null,
        action_type text not null check (action_type in ('EARN', 'SPEND')),
        amount numeric(20, 2) not null check (amount > 0),
        purchase_amount numeric(20, 2) not null default 0 check (purchase_amount >= 0),
        shop_id text,
        category_id text,
        status text not null check (status in ('pending', 'approved', 'rejected')),
        request_reason text not null,
        review_reason text,
        requested_by_id text not null,
        reviewed_by_id text,
        reviewed_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index point_request_ticket_status_idx on point.point_request_ticket (status, created_at desc);

      ${outboxTableSql('point')}
    `);
  }
}
