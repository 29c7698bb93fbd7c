import { EntityManager } from '@mikro-orm/postgresql';
import { arrayLiteral } from './array-literal';

/**
 * Kept counts of rows (tallies), for the totals a page reports without a `count(*)` that grows with
 * the table. Statement-level triggers with transition tables keep them in the writing transaction:
 * one upsert per statement whatever its number of rows, from every writer (services, consumers,
 * fixtures, bulk loads). Each tally is split into SHARDS rows picked by the writing backend, so
 * concurrent writers rarely wait for each other; a read sums at most SHARDS rows per key.
 */
const SHARDS = 16;

export interface TallyDefinition {
  /** The domain's schema; the tally lives in `<schema>.tally`. */
  schema: string;
  /** The counted table, in that schema. */
  table: string;
  /** The tally's name in `<schema>.tally`. */
  name: string;
  /** SQL of the text key a row is counted under (`tier_id::text`); one key, '', when omitted. */
  key?: string;
  /** SQL of which rows count (`deleted_at is null`); every row when omitted. */
  where?: string;
}

/** `<schema>.tally`, once per schema, before its first `tallySql`. */
export function tallyTableSql(schema: string): string {
  return `
    create table ${schema}.tally (
      name text not null,
      key text not null,
      shard smallint not null,
      n bigint not null,
      primary key (name, key, shard)
    );`;
}

/** The tally's triggers on its table, and its counts of the rows already there (under the triggers' lock). */
export function tallySql({ schema, table, name, key = `''`, where = 'true' }: TallyDefinition): string {
  const fn = `${schema}.${table}_${name}_tally`;
  const changes = (rows: string, sign: number) => `select ${key} as key, ${sign} as n from ${rows} where ${where}`;
  const bump = (select: string) => `
      insert into ${schema}.tally as tally (name, key, shard, n)
      select '${name}', key, pg_backend_pid() % ${SHARDS}, sum(n) from (${select}) changes
       group by key having sum(n) <> 0 order by key
      on conflict (name, key, shard) do update set n = tally.n + excluded.n;`;
  return `
    create function ${fn}() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then ${bump(changes('new_rows', 1))}
      elsif tg_op = 'DELETE' then ${bump(changes('old_rows', -1))}
      else ${bump(`${changes('new_rows', 1)} union all ${changes('old_rows', -1)}`)}
      end if;
      return null;
    end $$;
    create trigger ${table}_${name}_tally_insert after insert on ${schema}.${table}
      referencing new table as new_rows for each statement execute function ${fn}();
    create trigger ${table}_${name}_tally_update after update on ${schema}.${table}
      referencing new table as new_rows old table as old_rows for each statement execute function ${fn}();
    create trigger ${table}_${name}_tally_delete after delete on ${schema}.${table}
      referencing old table as old_rows for each statement execute function ${fn}();
    insert into ${schema}.tally (name, key, shard, n)
    select '${name}', key, 0, count(*) from (select ${key} as key from ${schema}.${table} where ${where}) existing group by key;`;
}

/** A tally's count under each of `keys` (0 for a key without rows). */
export async function tallyByKey(em: EntityManager, schema: string, name: string, keys: readonly string[]): Promise<Map<string, number>> {
  const rows: Array<{ key: string; n: string }> = keys.length
    ? await em.execute(`select key, sum(n)::text as n from ${schema}.tally where name = ? and key = any(?::text[]) group by key`, [name, arrayLiteral(keys)])
    : [];
  const counts = new Map(rows.map((row) => [row.key, Number(row.n)]));
  return new Map(keys.map((key) => [key, counts.get(key) ?? 0]));
}

/** A tally's count over all its keys. */
export async function tallyTotal(em: EntityManager, schema: string, name: string): Promise<number> {
  const [row] = await em.execute(`select coalesce(sum(n), 0)::text as n from ${schema}.tally where name = ?`, [name]);
  return Number(row.n);
}
