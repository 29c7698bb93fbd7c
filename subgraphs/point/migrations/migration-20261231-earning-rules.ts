import { Migration } from '@mikro-orm/migrations';

/**
 * Earning rules (docs/decisions.md, "Issue 29: earning rules"): each rule with its current definition,
 * every version it had, the rule book's version (bumped by every write of a rule, so that a process's
 * cached rule set is known stale in the transaction that reads it) and each application of a rule: the
 * ledger entry it wrote, the rule version that produced it, and what limits count.
 */
export class Migration20261231PointEarningRules extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table point.earning_rule (
        id uuid primary key,
        name text not null,
        description text,
        trigger text not null,
        conditions jsonb,
        effect jsonb not null,
        limits jsonb not null default '{}',
        priority int not null default 0 check (priority between 0 and 1000),
        stacks boolean not null default true,
        version int not null default 1 check (version >= 1),
        is_active boolean not null default false,
        budget_used numeric(20, 2) not null default 0 check (budget_used >= 0),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        deleted_at timestamptz
      );
      create index earning_rule_list_idx on point.earning_rule (created_at desc, id desc) where deleted_at is null;

      create table point.earning_rule_version (
        rule_id uuid not null references point.earning_rule (id),
        version int not null,
        definition jsonb not null,
        created_by text,
        created_at timestamptz not null default now(),
        primary key (rule_id, version)
      );

      create table point.earning_rule_book (
        singleton boolean primary key default true check (singleton),
        version bigint not null default 0
      );
      insert into point.earning_rule_book (singleton, version) values (true, 0);

      create table point.rule_application (
        id uuid primary key,
        rule_id uuid not null,
        rule_version int not null,
        member_id uuid not null,
        source_type text not null,
        source_id text not null,
        points numeric(20, 2) not null check (points > 0),
        ledger_entry_id uuid not null references point.point_transaction (id),
        occurred_at timestamptz not null,
        created_at timestamptz not null default now(),
        foreign key (rule_id, rule_version) references point.earning_rule_version (rule_id, version),
        constraint rule_application_once unique (rule_id, source_type, source_id)
      );
      create index rule_application_usage_idx on point.rule_application (rule_id, member_id, occurred_at);
      create index rule_application_source_idx on point.rule_application (source_type, source_id);
      create index rule_application_member_idx on point.rule_application (member_id, created_at desc, id desc);
    `);
  }
}
