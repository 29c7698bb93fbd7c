import { EntityClass, FilterQuery, QueryOrderMap, UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { conflict, notFound } from '../errors';
import { Locale, LOCALES, projectLocale } from '../i18n';
import { isRecordId } from '../ids';
import { offsetOf, Page, PageArgs, pageOf } from '../pagination';
import { containsAny } from '../search';
import { INCLUDING_DELETED } from '../db/soft-deletable';
import { NamedCatalogEntity } from './catalog-entity';

/** What a catalog's list takes besides paging; a list without a flag simply does not offer it. */
export interface CatalogListArgs extends PageArgs {
  /** Part of the name, in any language. */
  search?: string;
  /** false hides inactive records; absent shows them (catalogs without an active flag). */
  includeInActive?: boolean;
  includeDeletedAt?: boolean;
}

/** One catalog: its entity, how a missing record is named, its localized triples and list order. */
export interface CatalogDefinition<T> {
  entity: EntityClass<T>;
  /** Names the record in a 404 (`Tier not found`). */
  label: string;
  /** The localized triples, `['name', 'description']`. */
  localized: readonly string[];
  orderBy: QueryOrderMap<T>;
  /** A unique index of live records (a level, a name): its violation is a 409 on this field. */
  unique?: { field: string; message: (record: T) => string };
  /** The catalog's event of a written record, recorded with each write (create, update, set-active, soft delete) in its flush. */
  announce?: (em: EntityManager, record: T) => void;
}

type Given<T> = { [K in keyof T]?: T[K] | null };

/**
 * The generic part of a catalog service: list with search, paging and the `locale` projection, the
 * live record by id (404 otherwise), set-active, soft delete, and the localized fields of writes.
 * A catalog's own service extends it with its rules.
 */
export class CatalogService<T extends NamedCatalogEntity> {
  constructor(
    protected readonly em: EntityManager,
    protected readonly catalog: CatalogDefinition<T>,
  ) {}

  /** A page in the catalog's order, projected to `locale`; `where` adds the caller's own conditions. */
  async list(args: CatalogListArgs, locale?: Locale, where: FilterQuery<T> = {}): Promise<Page<T>> {
    const conditions: Record<string, unknown> = { ...(where as object) };
    if (args.includeInActive === false) conditions.isActive = true;
    if (args.search) Object.assign(conditions, containsAny(LOCALES.map((language) => `name_${language}`), args.search));
    const [items, total] = await this.em.findAndCount(this.catalog.entity, conditions as FilterQuery<T>, {
      orderBy: this.catalog.orderBy,
      limit: args.limit,
      offset: offsetOf(args),
      ...(args.includeDeletedAt ? INCLUDING_DELETED : {}),
    });
    return pageOf(
      items.map((item) => this.localize(item, locale)),
      total,
      args,
    );
  }

  /** The live record, projected to `locale`; 404 with `data.data.id`. */
  async get(id: string, locale?: Locale): Promise<T> {
    return this.localize(await this.live(id), locale);
  }

  async setActive(id: string, isActive: boolean): Promise<T> {
    const record = await this.live(id);
    Object.assign(record, { isActive });
    await this.flush(record);
    return record;
  }

  /** Soft delete: the record leaves reads and lists (the `live` filter); its row stays. */
  async softDelete(id: string): Promise<T> {
    const record = await this.live(id);
    record.deletedAt = new Date();
    await this.flush(record);
    return record;
  }

  localize(record: T, locale?: Locale): T {
    return projectLocale(record, [...this.catalog.localized], locale);
  }

  /** The live record (active or not); 404 with `data.data.id`. Any string is accepted as an id. */
  protected async live(id: string): Promise<T> {
    const record = isRecordId(id) ? await this.em.findOne(this.catalog.entity, { id } as FilterQuery<T>) : null;
    if (!record) throw notFound(this.catalog.label, id);
    return record;
  }

  /** The localized fields of a create: each language given, or null. */
  protected localizedValues(input: Record<string, unknown>): Record<string, string | null> {
    return Object.fromEntries(
      this.catalog.localized.flatMap((name) => LOCALES.map((language) => [`${name}_${language}`, (input[`${name}_${language}`] as string | undefined) ?? null])),
    );
  }

  /** The fields of an update: an absent one is kept, an explicit null clears it. */
  protected assignGiven<K extends keyof T>(record: T, input: Given<T>, fields: readonly K[]): void {
    for (const field of fields) {
      if (input[field] !== undefined) record[field] = (input[field] ?? null) as T[K];
    }
  }

  /** The localized fields of an update, as `assignGiven`. */
  protected assignLocalized(record: T, input: Record<string, unknown>): void {
    const fields = this.catalog.localized.flatMap((name) => LOCALES.map((language) => `${name}_${language}`)) as Array<keyof T>;
    this.assignGiven(record, input as Given<T>, fields);
  }

  /** Flushes the record's write with the catalog's event of it, reporting the catalog's unique index as 409 on its field. */
  protected async flush(record: T): Promise<void> {
    this.catalog.announce?.(this.em, record);
    try {
      await this.em.flush();
    } catch (error) {
      const unique = this.catalog.unique;
      if (unique && error instanceof UniqueConstraintViolationException) throw conflict(unique.message(record), unique.field);
      throw error;
    }
  }
}
