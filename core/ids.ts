import { randomUUID } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Our records' ids are UUIDs, but some references are plain strings (Part 1, convention 5: tier
 * ids): any string is accepted, and one that is not a UUID names nothing we have. Filter with these
 * before querying a uuid column, which would refuse the string with an error.
 */
export const isRecordId = (id: string): boolean => UUID.test(id);

export const recordIdsAmong = (ids: string[]): string[] => ids.filter(isRecordId);

/**
 * A new record id ordered by creation time (UUIDv7, RFC 9562: the millisecond in the first 48 bits,
 * then random bits), for the rows of tables that grow without end (the ledger, its lots, purchases):
 * each insert lands on the last page of the primary key's index, where a random UUIDv4 lands on a
 * random, cold page of a large index (a read from disk and a full-page image in the WAL per insert).
 */
export function timeOrderedId(now: number = Date.now()): string {
  const time = now.toString(16).padStart(12, '0');
  // randomUUID's text is xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx: keep its random bits and variant after the version.
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`;
}

/** `timeOrderedId` in SQL, for ids made inside a statement (PostgreSQL 15 has no uuidv7()): the clock's millisecond over gen_random_uuid(), version 7. */
export const TIME_ORDERED_ID_SQL = `encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing substring(int8send((extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid`;
