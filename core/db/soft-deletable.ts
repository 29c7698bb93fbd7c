import { Property } from '@mikro-orm/core';

/**
 * An entity deleted softly: deletion sets `deletedAt` and the row stays for whatever refers to it.
 * openModuleOrm applies the `live` filter to every entity that extends this class: the queries the ORM
 * builds (find, count, populate, and the relations joined to them) leave deleted rows out unless the
 * filter is switched off (`INCLUDING_DELETED`). SQL written by hand (`em.execute`, knex, RowLookup) is
 * not filtered: it says `deleted_at is null` itself.
 */
export abstract class SoftDeletable {
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
}

/** Find options that switch the `live` filter off: deleted rows too. */
export const INCLUDING_DELETED = { filters: { live: false } } as const;

/** The `live` filter of an ORM, applied by default to the given soft-deletable entities. */
export const liveFilter = (entityNames: string[]) => ({ live: { cond: { deletedAt: null }, default: true, entity: entityNames } });

export const isSoftDeletable = (entity: Function): boolean => entity.prototype instanceof SoftDeletable;
