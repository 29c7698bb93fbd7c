import { EntityClass, EntityDictionary, EntityKey, EntityManager, ReferenceKind } from '@mikro-orm/postgresql';
import { runStatement } from './statement';

/**
 * A read of one row by a unique column, compiled once: the SELECT is built from the entity's metadata
 * at first use and each row is mapped into the caller's unit of work (`em.map`), like a findOne. Hot
 * reads by id (the current staff member or member on every request) skip the ORM's per-call query
 * building, which costs about as much CPU as the query itself. `live` adds `deleted_at is null`.
 */
export class RowLookup<T extends object> {
  /** The statement, with its value as `$1`. */
  private sql?: string;

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

  /** On the transaction's connection inside one, else on a pooled one, its value bound (core/db/statement). */
  private async row(em: EntityManager, value: unknown): Promise<EntityDictionary<T> | undefined> {
    this.sql ??= this.compile(em);
    return (await runStatement<EntityDictionary<T>>(em, this.sql, [value]))[0];
  }

  private compile(em: EntityManager): string {
    const meta = em.getMetadata().get<T>(this.entity.name);
    const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
    const columns = meta.props.filter((prop) => prop.persist !== false && prop.fieldNames?.length).flatMap((prop) => prop.fieldNames);
    const schema = meta.schema ?? em.config.get('schema');
    const table = `${schema ? `${quote(schema)}.` : ''}${quote(meta.tableName)}`;
    const column = (property: string) => quote(meta.properties[property as EntityKey<T>].fieldNames[0]);
    const live = this.options.live ? ` and ${column('deletedAt')} is null` : '';
    return `select ${columns.map(quote).join(', ')} from ${table} where ${column(this.key)} = $1${live} limit 1`;
  }
}
