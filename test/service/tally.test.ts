import { Client } from 'pg';
import { tallySql, tallyTableSql } from '../../core/db/tally';
import { createScratchDatabase, ScratchDatabase } from '../support/scratch-database';

/**
 * The tallies' triggers on a table of their own: whatever the statements, the rows per statement, the
 * transactions that roll back and the writers running at once, a tally equals the count it keeps.
 */
let database: ScratchDatabase;
const clients: Client[] = [];

async function connect(): Promise<Client> {
  const client = new Client({ connectionString: database.url });
  await client.connect();
  clients.push(client);
  return client;
}

beforeAll(async () => {
  database = await createScratchDatabase('svc_tally');
  const client = await connect();
  await client.query(`
    create schema shop;
    create table shop.item (id serial primary key, kind text not null, deleted_at timestamptz);
    insert into shop.item (kind) select case when i % 3 = 0 then 'a' else 'b' end from generate_series(1, 30) as i;
    update shop.item set deleted_at = now() where id <= 4;
    ${tallyTableSql('shop')}
    ${tallySql({ schema: 'shop', table: 'item', name: 'live_by_kind', key: 'kind', where: 'deleted_at is null' })}
    ${tallySql({ schema: 'shop', table: 'item', name: 'items' })}
  `);
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.end()));
  await database?.drop();
});

/** Each tally's counts by key beside the counts it keeps. */
async function kept(client: Client) {
  const { rows: tallied } = await client.query(`select name, key, sum(n)::int as n from shop.tally group by name, key having sum(n) <> 0 order by name, key`);
  const { rows: counted } = await client.query(`
    select 'items' as name, '' as key, count(*)::int as n from shop.item having count(*) > 0
    union all
    select 'live_by_kind', kind, count(*)::int from shop.item where deleted_at is null group by kind
    order by name, key`);
  return { tallied, counted };
}

describe('a tally', () => {
  it('starts from the rows already there', async () => {
    const client = clients[0];
    const { tallied, counted } = await kept(client);
    expect(counted).toEqual([
      { name: 'items', key: '', n: 30 },
      { name: 'live_by_kind', key: 'a', n: 9 },
      { name: 'live_by_kind', key: 'b', n: 17 },
    ]);
    expect(tallied).toEqual(counted);
  });

  it('follows inserts, key changes, soft deletes, undeletes and deletes of many rows per statement', async () => {
    const client = clients[0];
    await client.query(`insert into shop.item (kind) select 'c' from generate_series(1, 12)`);
    await client.query(`update shop.item set kind = 'a' where kind = 'c' and id % 2 = 0`);
    await client.query(`update shop.item set deleted_at = now() where kind = 'b' and id % 5 = 0`);
    await client.query(`update shop.item set deleted_at = null where id <= 2`);
    await client.query(`update shop.item set kind = kind`);
    await client.query(`delete from shop.item where kind = 'a' and id % 3 = 0`);
    const { tallied, counted } = await kept(client);
    expect(counted.find((row) => row.key === 'c')).toEqual({ name: 'live_by_kind', key: 'c', n: 6 });
    expect(tallied).toEqual(counted);
  });

  it('keeps nothing of a transaction that rolls back', async () => {
    const client = clients[0];
    const before = await kept(client);
    await client.query('begin');
    await client.query(`insert into shop.item (kind) select 'd' from generate_series(1, 5)`);
    await client.query(`delete from shop.item where kind = 'b'`);
    await client.query('rollback');
    expect(await kept(client)).toEqual(before);
  });

  it('stays exact under concurrent writers, on at most 16 rows per key', async () => {
    const writers = await Promise.all(Array.from({ length: 6 }, connect));
    await Promise.all(
      writers.map(async (client, writer) => {
        for (let round = 0; round < 20; round++) {
          await client.query('begin');
          await client.query(`insert into shop.item (kind) values ($1), ('a')`, [`w${writer % 2}`]);
          await client.query(`update shop.item set deleted_at = now() where id = (select max(id) from shop.item where kind = 'a' and deleted_at is null)`);
          await client.query('commit');
        }
      }),
    );
    const { tallied, counted } = await kept(clients[0]);
    expect(counted.find((row) => row.key === 'w0')).toEqual({ name: 'live_by_kind', key: 'w0', n: 60 });
    expect(tallied).toEqual(counted);
    const { rows } = await clients[0].query(`select max(shards)::int as shards from (select count(*) as shards from shop.tally group by name, key) per_key`);
    expect(rows[0].shards).toBeLessThanOrEqual(16);
  });
});
