import { Migration } from '@mikro-orm/migrations';

/**
 * Purchases (v1 transactions) and their refunds. A purchase's external id is unique per store (a
 * purchase without a store shares the one null store); two imports of one purchase racing each other
 * meet on that index, and the second answers the first.
 */
export class Migration20261201PointPurchases extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table point.purchase (
        id uuid primary key,
        member_id uuid not null,
        amount numeric(20, 2) not null check (amount > 0),
        store_id text,
        category text,
        external_id text,
        occurred_at timestamptz not null,
        status text not null check (status in ('COMPLETED', 'PARTIALLY_REFUNDED', 'REFUNDED')),
        points_earned numeric(20, 2) not null default 0 check (points_earned >= 0),
        point_rule_id uuid references point.point_shop_rule (id),
        earn_entry_id uuid references point.point_transaction (id),
        refunded_amount numeric(20, 2) not null default 0 check (refunded_amount >= 0 and refunded_amount <= amount),
        points_reversed numeric(20, 2) not null default 0 check (points_reversed >= 0),
        points_unrecovered numeric(20, 2) not null default 0 check (points_unrecovered >= 0),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        constraint purchase_points_taken_back check (points_reversed + points_unrecovered <= points_earned)
      );
      create unique index purchase_external_uidx on point.purchase (store_id, external_id) nulls not distinct where external_id is not null;
      create index purchase_member_idx on point.purchase (member_id, occurred_at desc, id desc);
      create index purchase_occurred_idx on point.purchase (occurred_at desc, id desc);

      create table point.purchase_refund (
        id uuid primary key,
        purchase_id uuid not null references point.purchase (id),
        member_id uuid not null,
        amount numeric(20, 2) not null check (amount > 0),
        points_reversed numeric(20, 2) not null check (points_reversed >= 0),
        points_unrecovered numeric(20, 2) not null check (points_unrecovered >= 0),
        spend_entry_id uuid references point.point_transaction (id),
        created_at timestamptz not null default now()
      );
      create index purchase_refund_purchase_idx on point.purchase_refund (purchase_id, created_at);
      create index purchase_refund_member_idx on point.purchase_refund (member_id, created_at desc, id desc);
    `);
  }
}
