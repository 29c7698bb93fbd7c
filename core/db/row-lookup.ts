import { EntityClass, EntityDictionary, EntityKey, EntityManager, ReferenceKind } from '@mikro-orm/postgresql';
import { runStatement } from './statement';

/**
 * A read of one row by a unique column, compiled once: the SELECT is built from the entity's metadata
 * at first use and each row is mapped into the caller's unit of work (`em.map`), like a findOne. Hot
 * reads by id (the current staff member or member on every request) skip the ORM's per-call query
 * building, which costs about as much CPU as the query itself. `live` adds `deleted_at is null`.
 */

export class RowLookup<T extends object> {
  /** The statement with a `?` placeholder (the ORM's) and with `$1` (the driver's). */
  private sql?: { orm: string; driver: string };

  constructor(
    private readonly entity: EntityClass<T>,
    private readonly key: EntityKey<T>,
    private readonly options: { live?: boolean } = {},
  ) {}

  /** The row as an entity of the caller's unit of work: changes to it are flushed. */
  async find(em: EntityManager, value: unknown): Promise<T | null> {
    const row = await this.row(em, value);
    return row ? em.map(this.entity, row) : null;
  }

  /**
   * The row as a plain instance of the entity class that the ORM does not know (no identity map entry,
   * no snapshot, no accessors for change tracking): for answers that only show it, such as the caller's
   * own record on every request. A many-to-one relation is an instance of its class holding only its
   * primary key (enough for `roleId`-style getters; it cannot be loaded).
   */
  async view(em: EntityManager, value: unknown): Promise<T | null> {
    const row = await this.row(em, value);
    return row ? viewOf(em, this.entity, row) : null;
  }

  /** The row, on a pooled driver connection outside a transaction (`readRows`). */
  private async row(em: EntityManager, value: unknown): Promise<EntityDictionary<T> | undefined> {
    this.sql ??= this.compile(em);
    return (await readRows<EntityDictionary<T>>(em, this.sql.orm, [value], this.sql.driver))[0];
  }

  private compile(em: EntityManager): { orm: string; driver: string } {
    const meta = em.getMetadata().get<T>(this.entity.name);
    const column = (property: string) => quote(meta.properties[property as EntityKey<T>].fieldNames[0]);
    const live = this.options.live ? ` and ${column('deletedAt')} is null` : '';
    const select = (placeholder: string) => `select ${columnsOf(em, this.entity)} from ${tableOf(em, this.entity)} where ${column(this.key)} = ${placeholder}${live} limit 1`;
    return { orm: select('?'), driver: select('$1') };
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The entity's table, schema-qualified and quoted. */
export function tableOf<T extends object>(em: EntityManager, entity: EntityClass<T>): string {
  const meta = em.getMetadata().get<T>(entity.name);
  const schema = meta.schema ?? em.config.get('schema');
  return `${schema ? `${quote(schema)}.` : ''}${quote(meta.tableName)}`;
}

/** The entity's stored columns, quoted, each prefixed with `alias.` when one is given: what `viewOf` maps back. */
export function columnsOf<T extends object>(em: EntityManager, entity: EntityClass<T>, alias?: string): string {
  const meta = em.getMetadata().get<T>(entity.name);
  const columns = meta.props.filter((prop) => prop.persist !== false && prop.fieldNames?.length).flatMap((prop) => prop.fieldNames);
  return columns.map((column) => `${alias ? `${alias}.` : ''}${quote(column)}`).join(', ');
}

/**
 * A row as a plain instance of the entity class that the ORM does not know (no identity map entry,
 * no snapshot, no accessors for change tracking): for answers that only show it. A many-to-one relation
 * is an instance of its class holding only its primary key (enough for `roleId`-style getters; it
 * cannot be loaded).
 */
export function viewOf<T extends object>(em: EntityManager, entity: EntityClass<T>, row: EntityDictionary<T>): T {
  const meta = em.getMetadata().get<T>(entity.name);
  const data = em.getDriver().mapResult(row, meta) as Record<string, unknown>;
  for (const prop of meta.relations) {
    const key = data[prop.name];
    if (prop.kind === ReferenceKind.MANY_TO_ONE && key !== null && key !== undefined) {
      data[prop.name] = Object.assign(Object.create(prop.targetMeta!.prototype), { [prop.targetMeta!.primaryKeys[0]]: key });
    }
  }
  // Own data properties: assigning would run the change-tracking setters the ORM puts on the prototype.
  const view = Object.create(meta.prototype) as T;
  for (const [key, field] of Object.entries(data)) Object.defineProperty(view, key, { value: field, writable: true, enumerable: true, configurable: true });
  return view;
}

/** Each statement's text with the driver's placeholders (`$1`, `$2`, ...) for the ORM's (`?`): callers pass constant texts, so it stays small. */
const driverTexts = new Map<string, string>();
const driverTextOf = (sql: string): string => {
  let text = driverTexts.get(sql);
  if (text === undefined) {
    let index = 0;
    text = sql.replace(/\?/g, () => `$${++index}`);
    driverTexts.set(sql, text);
  }
  return text;
};

/**
 * The rows of a read (`?` placeholders, one per parameter; an array goes in as one `arrayLiteral`).
 * The statement goes to the driver with its parameters bound (`$1`), as a hand-written read would
 * (`runStatement`: a pooled connection, or the transaction's own inside one).
 * `driverText` is the statement already written with `$n` placeholders, when the caller keeps it.
 */
export function readRows<R>(em: EntityManager, sql: string, params: unknown[], driverText?: string): Promise<R[]> {
  return runStatement<R>(em, driverText ?? driverTextOf(sql), params);
}
