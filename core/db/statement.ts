import { EntityManager } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';

/** A connection as the ORM's knex client hands it out (node-postgres). */
interface DriverConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** The server-side name of each hot statement's text (callers pass constant texts, so it stays small). */
const statementNames = new Map<string, string>();

/** A hot statement's name: its text's hash, the same on every connection and in every process. */
function statementNameOf(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `hot_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    statementNames.set(text, name);
  }
  return name;
}

/** Hands out driver connections: the ORM's pool, or a transaction's own connection. */
export interface DriverClient {
  acquireConnection(): Promise<DriverConnection>;
  releaseConnection(connection: DriverConnection): Promise<unknown> | unknown;
}

/**
 * Runs a hot statement written once in SQL with `$1`-style parameters, bound by the driver as a
 * hand-written statement would be: inside a transaction on that transaction's own connection, else on
 * a pooled connection of the ORM's driver. `em.execute` would format the values into the text through
 * knex and MikroORM's query pipeline on every call, which costs about as much CPU as the statement;
 * write paths that run on every request (the ledger's, idempotency claims, lookups by id) use this.
 * The statement is a named prepared statement: each connection sends and parses its text once, later
 * calls send only its parameters, and PostgreSQL plans it from the parsed text (the server drops it with
 * the connection, and re-plans it itself when a table it reads changes).
 * Errors are the driver's (a `code` of PostgreSQL's), not the ORM's exception classes.
 */
export function runStatement<Row>(em: EntityManager, text: string, values: unknown[]): Promise<Row[]> {
  return runStatementOn<Row>(driverClientOf(em), text, values);
}

/** `runStatement` on a connection of `client`. */
export async function runStatementOn<Row>(client: DriverClient, text: string, values: unknown[]): Promise<Row[]> {
  const connection = await client.acquireConnection();
  try {
    return (await connection.query({ name: statementNameOf(text), text, values })).rows as Row[];
  } finally {
    await client.releaseConnection(connection);
  }
}

/**
 * The knex client to take the connection from: a transaction's hands out its own connection (and its
 * release is a no-op), the ORM's pools them.
 */
function driverClientOf(em: EntityManager): DriverClient {
  const transaction = em.getTransactionContext<{ client: DriverClient }>();
  return transaction ? transaction.client : poolOf(em);
}

/** The ORM's pool of driver connections, outside any transaction. */
export const poolOf = (em: EntityManager): DriverClient => em.getConnection().getKnex().client;

/**
 * A hot statement written once with named parameters, `:memberId` (a colon after a space, `(` or `,`,
 * so casts such as `::numeric` and text such as 'HH24:MI' are left alone), compiled at construction
 * to the driver's `$1`, `$2`...; `run` binds a value per name (null is a value, a missing name a bug).
 */
export class Statement<Params extends Record<string, unknown>> {
  readonly text: string;
  private readonly names: Array<keyof Params & string> = [];

  constructor(sql: string) {
    this.text = sql.replace(/(?<=[\s(,]):([a-z][A-Za-z0-9]*)/g, (_, name: keyof Params & string) => {
      const at = this.names.indexOf(name);
      return `$${at >= 0 ? at + 1 : this.names.push(name)}`;
    });
  }

  run<Row>(em: EntityManager, params: Params): Promise<Row[]> {
    return runStatement<Row>(
      em,
      this.text,
      this.names.map((name) => {
        if (params[name] === undefined) throw new Error(`Statement parameter :${name} is missing`);
        return params[name];
      }),
    );
  }
}

/** Whether a statement run here failed on a unique index (PostgreSQL's `unique_violation`): the statement is undone as a whole. */
export const isUniqueViolation = (error: unknown): boolean => typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
