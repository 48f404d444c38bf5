import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/**
 * DynamoDB's billing rules for on-demand capacity, applied to the items a request actually read or wrote
 * (bench/capacity-meter.ts captures them): item sizes, then write and read request units. The rules (two of them,
 * a transaction's index writes and a missing BatchGetItem key, inferred: docs/performance.md):
 *
 * - Item size: the sum over its attributes of the name's UTF-8 length and the value's size. A string is its
 *   UTF-8 bytes, binary its bytes, a number about one byte per two significant digits plus one (plus one when
 *   negative), a boolean or null one byte, a list or map 3 bytes plus its elements plus one byte per element
 *   (a map's element also counts its name), a set the sum of its elements.
 * - A write is 1 unit per KB of the item, rounded up (at least 1); an update or a put over an item is charged on
 *   the larger of the item before and after, a delete (or a failed condition) on the item as it is. Every item
 *   of a TransactWriteItems counts twice, a ConditionCheck included (charged on the item it reads).
 * - Each global secondary index whose entry a write puts, changes or removes is one more write of the entry's
 *   size (1 unit per KB, rounded up); an index key that changes is two (the old entry removed, the new one
 *   put). An entry is the table's and the index's keys plus the projected attributes: every attribute for an
 *   index projecting ALL, none for a keys-only one, so a write that leaves a keys-only index's keys alone
 *   writes nothing to it. An index write is not doubled inside a transaction (only the table's part is).
 * - A read is 1 unit per 4 KB, rounded up (at least 1) for a strongly consistent read, half for an eventually
 *   consistent one; a TransactGetItems item counts twice a strongly consistent read. The size read is the whole
 *   item whatever the projection; an item that is not there costs the minimum. A Query or Scan is charged once
 *   on the total of the items it read (before any filter), rounded up per 4 KB; one that read nothing costs the
 *   minimum. A BatchGetItem is charged per item, each rounded up on its own.
 */

/** An item as the low-level API carries it. */
export type Item = Record<string, AttributeValue>;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** A number's size: one byte per two significant digits, plus one, plus one more when negative. */
function numberBytes(text: string): number {
  const digits = text
    .replace(/^[-+]/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1 + (text.startsWith('-') ? 1 : 0);
}

/** The size DynamoDB counts for one attribute value (its name not included). */
export function valueBytes(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberBytes(value.N);
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((sum, s) => sum + utf8(s), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, n) => sum + numberBytes(n), 0);
  if (value.BS !== undefined) return value.BS.reduce((sum, b) => sum + b.length, 0);
  if (value.L !== undefined) return 3 + value.L.reduce((sum, element) => sum + valueBytes(element) + 1, 0);
  if (value.M !== undefined) return 3 + Object.entries(value.M).reduce((sum, [name, element]) => sum + utf8(name) + valueBytes(element) + 1, 0);
  return 0;
}

/** An item's size in bytes; 0 for no item. */
export function itemBytes(item: Item | undefined): number {
  if (!item) return 0;
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) bytes += utf8(name) + valueBytes(value);
  return bytes;
}

/** Write units of one standard write of `bytes`: 1 per KB, rounded up, at least 1. */
export const writeUnitsOf = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

/** Read units of one read of `bytes` (a Query's or Scan's total): 1 per 4 KB rounded up, at least 1; half when eventually consistent. */
export const readUnitsOf = (bytes: number, consistent: boolean) => Math.max(1, Math.ceil(bytes / 4096)) * (consistent ? 1 : 0.5);

/** A global secondary index as the billing sees it. */
export interface IndexShape {
  name: string;
  partitionKey: string;
  sortKey: string;
  keysOnly: boolean;
}

/** An attribute value in a form that compares equal whatever the order of a map's attributes. */
function canonical(value: unknown): string {
  if (value instanceof Uint8Array) return `B:${Buffer.from(value).toString('base64')}`;
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const sameValue = (a: AttributeValue | undefined, b: AttributeValue | undefined) => canonical(a) === canonical(b);

/** The index's entry for `item`, or undefined when the item is not in the index (a sparse index: a key attribute missing). */
function entryOf(item: Item | undefined, index: IndexShape, tableKeys: readonly string[]): Item | undefined {
  if (!item || item[index.partitionKey] === undefined || item[index.sortKey] === undefined) return undefined;
  if (!index.keysOnly) return item;
  const entry: Item = {};
  for (const name of new Set([...tableKeys, index.partitionKey, index.sortKey])) if (item[name] !== undefined) entry[name] = item[name]!;
  return entry;
}

/**
 * The writes an index takes when an item goes from `before` to `after` (undefined: absent), as the byte sizes of
 * the entries written: none when the item is in the index neither before nor after, or its entry is unchanged;
 * one when it enters, leaves or its projected attributes change; two when its index keys change.
 */
export function indexWriteBytes(before: Item | undefined, after: Item | undefined, index: IndexShape, tableKeys: readonly string[]): number[] {
  const old = entryOf(before, index, tableKeys);
  const now = entryOf(after, index, tableKeys);
  if (!old && !now) return [];
  if (!old) return [itemBytes(now)];
  if (!now) return [itemBytes(old)];
  const moved = !sameValue(old[index.partitionKey], now[index.partitionKey]) || !sameValue(old[index.sortKey], now[index.sortKey]);
  if (moved) return [itemBytes(old), itemBytes(now)];
  return canonical(old) === canonical(now) ? [] : [Math.max(itemBytes(old), itemBytes(now))];
}

/** How an item was written: a Put, an Update, a Delete, or a transaction's ConditionCheck (which writes nothing). */
export type WriteKind = 'put' | 'update' | 'delete' | 'check';

/** The units one item's write costs: the table's part (doubled in a transaction) and each index's, with the bytes each was charged on. */
export function itemWriteUnits(
  kind: WriteKind,
  before: Item | undefined,
  after: Item | undefined,
  options: { transactional: boolean; indexes: readonly IndexShape[]; tableKeys: readonly string[] },
): { table: { units: number; bytes: number }; indexes: Record<string, { units: number; bytes: number }> } {
  const bytes = kind === 'delete' || kind === 'check' ? itemBytes(before) : Math.max(itemBytes(before), itemBytes(after));
  const table = { units: writeUnitsOf(bytes) * (options.transactional ? 2 : 1), bytes };
  const indexes: Record<string, { units: number; bytes: number }> = {};
  if (kind === 'check') return { table, indexes };
  for (const index of options.indexes) {
    const writes = indexWriteBytes(before, after, index, options.tableKeys);
    if (writes.length) {
      indexes[index.name] = { units: writes.reduce((sum, entry) => sum + writeUnitsOf(entry), 0), bytes: writes.reduce((sum, entry) => sum + entry, 0) };
    }
  }
  return { table, indexes };
}
