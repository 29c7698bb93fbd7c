const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Our records' ids are UUIDs, but some references are plain strings (Part 1, convention 5: tier
 * ids): any string is accepted, and one that is not a UUID names nothing we have. Filter with these
 * before querying a uuid column, which would refuse the string with an error.
 */
export const isRecordId = (id: string): boolean => UUID.test(id);

export const recordIdsAmong = (ids: string[]): string[] => ids.filter(isRecordId);
