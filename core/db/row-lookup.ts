import { EntityClass, EntityDictionary, EntityKey, EntityManager, ReferenceKind } from '@mikro-orm/postgresql';

/**
 * A read of one row by a unique column, compiled once: the SELECT is built from the entity's metadata
 * at first use and each row is mapped into the caller's unit of work (`em.map`), like a findOne. Hot
 * reads by id (the current staff member or member on every request) skip the ORM's per-call query
 * building, which costs about as much CPU as the query itself. `live` adds `deleted_at is null`.
 */
/** A connection of the driver's pool (node-postgres). */
interface PooledConnection<T> {
  query(text: string, values: unknown[]): Promise<{ rows: EntityDictionary<T>[] }>;
}

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
    if (!row) return null;
    const meta = em.getMetadata().get<T>(this.entity.name);
    const data = em.getDriver().mapResult(row, meta) as Record<string, unknown>;
    for (const prop of meta.relations) {
      const key = data[prop.name];
      if (prop.kind === ReferenceKind.MANY_TO_ONE && key !== null && key !== undefined) {
        data[prop.name] = Object.assign(Object.create(prop.targetMeta!.prototype), { [prop.targetMeta!.primaryKeys[0]]: key });
      }
    }
    // Own data properties: assigning would run the change-tracking setters the ORM puts on the prototype.
    const entity = Object.create(meta.prototype) as T;
    for (const [key, field] of Object.entries(data)) Object.defineProperty(entity, key, { value: field, writable: true, enumerable: true, configurable: true });
    return entity;
  }

  /**
   * Outside a transaction the statement goes to a pooled connection of the ORM's driver with its
   * parameter bound (`$1`), as a hand-written read would; the ORM's execute would format the value into
   * the text and pass it through knex's runner. Inside one, it runs on the transaction's connection.
   */
  private async row(em: EntityManager, value: unknown): Promise<EntityDictionary<T> | undefined> {
    this.sql ??= this.compile(em);
    if (em.isInTransaction()) return (await em.execute<EntityDictionary<T>[]>(this.sql.orm, [value]))[0];
    const client = em.getConnection().getKnex().client;
    const connection: PooledConnection<T> = await client.acquireConnection();
    try {
      return (await connection.query(this.sql.driver, [value])).rows[0];
    } finally {
      client.releaseConnection(connection);
    }
  }

  private compile(em: EntityManager): { orm: string; driver: string } {
    const meta = em.getMetadata().get<T>(this.entity.name);
    const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
    const columns = meta.props.filter((prop) => prop.persist !== false && prop.fieldNames?.length).flatMap((prop) => prop.fieldNames);
    const schema = meta.schema ?? em.config.get('schema');
    const table = `${schema ? `${quote(schema)}.` : ''}${quote(meta.tableName)}`;
    const column = (property: string) => quote(meta.properties[property as EntityKey<T>].fieldNames[0]);
    const live = this.options.live ? ` and ${column('deletedAt')} is null` : '';
    const select = (placeholder: string) => `select ${columns.map(quote).join(', ')} from ${table} where ${column(this.key)} = ${placeholder}${live} limit 1`;
    return { orm: select('?'), driver: select('$1') };
  }
}
