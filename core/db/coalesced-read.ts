import { EntityManager } from '@mikro-orm/postgresql';
import { isRecordId } from '../ids';
import { arrayLiteral } from './array-literal';
import { DriverClient, poolOf, runStatement, runStatementOn } from './statement';

interface Waiter<Row> {
  ids: string[];
  resolve: (rows: Row[]) => void;
  reject: (error: unknown) => void;
}

/** One read's requests: those waiting for the next statement, and whether one runs. */
interface Round<Row> {
  waiting: Waiter<Row>[];
  running: boolean;
}

/** Each pool's reads by statement text: a pool is one domain's ORM, so reads of two platforms in one process never meet. */
const readsByPool = new WeakMap<DriverClient, Map<string, Round<unknown>>>();

/**
 * The rows of a read by record ids (`sql` takes them as its one parameter, `$1::uuid[]` and answers each
 * row's id in `idColumn`), outside a transaction: the requests that ask the same read while one
 * statement of it runs wait for the next, which reads the ids of all of them in one statement. Under
 * load, twenty customer reads at once cost PostgreSQL and the driver a few statements instead of
 * twenty; alone, a read is one statement as before. Nothing is kept: each statement starts after every
 * read it answers was asked (so it sees every write committed before), and its rows go to those reads
 * only. Ids that are not record ids name nothing (they never reach the uuid cast, which would fail the
 * statement for everyone in it). Inside a transaction the read runs on the transaction's connection.
 */
export function readRowsByIds<Row extends object>(em: EntityManager, sql: string, ids: readonly string[], idColumn: keyof Row & string): Promise<Row[]> {
  const asked = [...new Set(ids.filter(isRecordId).map((id) => id.toLowerCase()))];
  if (asked.length === 0) return Promise.resolve([]);
  if (em.getTransactionContext()) return runStatement<Row>(em, sql, [arrayLiteral(asked)]);
  const pool = poolOf(em);
  let reads = readsByPool.get(pool);
  if (!reads) readsByPool.set(pool, (reads = new Map()));
  let round = reads.get(sql) as Round<Row> | undefined;
  if (!round) reads.set(sql, (round = { waiting: [], running: false }));
  const read = round;
  return new Promise<Row[]>((resolve, reject) => {
    read.waiting.push({ ids: asked, resolve, reject });
    if (!read.running) void runRounds(pool, sql, read, idColumn);
  });
}

/** Runs a statement for everyone waiting, again while more wait. */
async function runRounds<Row extends object>(pool: DriverClient, sql: string, read: Round<Row>, idColumn: keyof Row & string): Promise<void> {
  read.running = true;
  while (read.waiting.length > 0) {
    const waiters = read.waiting;
    read.waiting = [];
    try {
      const rows = await runStatementOn<Row>(pool, sql, [arrayLiteral([...new Set(waiters.flatMap((waiter) => waiter.ids))])]);
      const byId = new Map<string, Row[]>();
      for (const row of rows) {
        const id = String(row[idColumn]);
        const same = byId.get(id);
        if (same) same.push(row);
        else byId.set(id, [row]);
      }
      for (const waiter of waiters) waiter.resolve(waiter.ids.flatMap((id) => byId.get(id) ?? []));
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
    }
  }
  read.running = false;
}
