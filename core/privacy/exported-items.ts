import { jsonInteger } from '../shared/amounts.js';

/**
 * A stored item as a player's export shows it: the record the platform keeps, without what only the table needs
 * (its keys and index keys, which repeat the record's own ids, the `type` tag, the TTL) and without request
 * fingerprints and hashes (SHA-256s of earlier requests, which tell the player nothing and which only an
 * idempotent retry compares against).
 */
const TABLE_ONLY = new Set(['pk', 'sk', 'type', 'expiresAt', 'fingerprint', 'request']);
const INDEX_KEY = /^gsi\d+(pk|sk)$/;

export function exportedItem(item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).flatMap(([name, value]) => (TABLE_ONLY.has(name) || INDEX_KEY.test(name) ? [] : [[name, plain(value)]])));
}

/**
 * A stored value as JSON: an amount past 2^53 (the document client reads it as a bigint) written exactly, as
 * the API answers amounts it fixes as integers; a set as a sorted list; binary as Base64.
 */
function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return jsonInteger(value);
  if (value instanceof Set) return [...value].sort(ascending).map(plain);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, plain(inner)]));
  return value;
}

/** A set's members are all numbers or all strings. */
const ascending = (a: unknown, b: unknown) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0);
