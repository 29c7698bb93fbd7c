import { Migration } from '@mikro-orm/migrations';

/**
 * Pending points (issue 29): points held for a return window before they can be spent. A hold is not a
 * ledger entry: it counts in the member's `pending_amount` only, and becomes an EARN entry (with its lot,
 * whose expiry starts then) when activated, by the job when due or by an admin early; a refund of its
 * purchase cancels or reduces it first. A rule may set its own period.
 */
export class Migration20270102PointPendingPoints extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      alter table point.point_balance add column pending_amount numeric(20, 2) not null default 0 check (pending_amount >= 0);
      alter table point.earning_rule add column pending_days int check (pending_days between 0 and 365);

      create table point.pending_points (
        id uuid primary key,
        member_id uuid not null,
        amount numeric(20, 2) not null check (amount >= 0),
        original_amount numeric(20, 2) not null check (original_amount >= amount),
        purchase_amount numeric(20, 2) not null default 0,
        shop_id text,
        category_id text,
        note text,
        source_by text,
        reference_id text,
        metadata jsonb,
        source_type text not null,
        source_id text not null,
        activates_at timestamptz not null,
        status text not null default 'pending' check (status in ('pending', 'activated', 'cancelled')),
        earn_entry_id uuid references point.point_transaction (id),
        created_at timestamptz not null default now(),
        settled_at timestamptz,
        constraint pending_points_activated check ((status = 'activated') = (earn_entry_id is not null))
      );
      create index pending_points_due_idx on point.pending_points (activates_at, id) where status = 'pending';
      create index pending_points_member_idx on point.pending_points (member_id, created_at desc, id desc);
      create index pending_points_source_idx on point.pending_points (source_type, source_id);

      alter table point.rule_application alter column ledger_entry_id drop not null;
      alter table point.rule_application add column pending_id uuid references point.pending_points (id);
      alter table point.rule_application add constraint rule_application_written check (ledger_entry_id is not null or pending_id is not null);
    `);
  }
}
