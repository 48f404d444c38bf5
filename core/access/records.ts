import { accessError } from './errors.js';

/**
 * The `record` ownership rule (core/http/operation.ts), checked where the domain reads the record anyway, so it
 * costs no request of its own: the record exists and its owner is the caller, or else the same 404 as a record
 * that does not exist, so ids and bill numbers cannot be probed.
 */
export function ownedRecord<T extends Record<string, unknown>>(record: T | undefined, isCallers: (record: T) => boolean, missing: string): T {
  if (record === undefined || !isCallers(record)) throw accessError('access.not_found', missing);
  return record;
}
