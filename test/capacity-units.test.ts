import { describe, expect, it } from 'vitest';
import { type IndexShape, type Item, indexWriteBytes, itemBytes, itemWriteUnits, readUnitsOf, valueBytes, writeUnitsOf } from '../bench/capacity.js';

/**
 * The billing rules the bench counts capacity units with (bench/capacity.ts): DynamoDB's item size, write and read
 * units, and the index writes an item's change costs. The figures are DynamoDB's documented ones.
 */

const TABLE_KEYS = ['pk', 'sk'] as const;
const board: IndexShape = { name: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk', keysOnly: false };
const keysOnly: IndexShape = { name: 'gsi6', partitionKey: 'gsi6pk', sortKey: 'gsi6sk', keysOnly: true };
const options = { transactional: false, indexes: [board, keysOnly], tableKeys: TABLE_KEYS };

const s = (text: string) => ({ S: text });
const n = (text: string) => ({ N: text });

describe('item size', () => {
  it('counts each attribute name and its value', () => {
    expect(itemBytes({ pk: s('USER#1'), sk: s('BAL') })).toBe(2 + 6 + 2 + 3);
    expect(itemBytes(undefined)).toBe(0);
  });

  it('counts strings in UTF-8 bytes, binary in bytes, booleans and null as one byte', () => {
    expect(valueBytes(s('é'))).toBe(2);
    expect(valueBytes(s('票'))).toBe(3);
    expect(valueBytes({ B: new Uint8Array(10) })).toBe(10);
    expect(valueBytes({ BOOL: false })).toBe(1);
    expect(valueBytes({ NULL: true })).toBe(1);
  });

  it('counts a number as one byte per two significant digits, plus one (and one for the sign)', () => {
    expect(valueBytes(n('12345'))).toBe(4);
    expect(valueBytes(n('-12345'))).toBe(5);
    expect(valueBytes(n('1000'))).toBe(2);
    expect(valueBytes(n('0.0012'))).toBe(2);
    expect(valueBytes(n('1234567890123'))).toBe(8);
  });

  it('counts a list or map as 3 bytes plus its elements plus one byte each, a set as its elements', () => {
    expect(valueBytes({ L: [s('ab'), n('1')] })).toBe(3 + (2 + 1) + (2 + 1));
    expect(valueBytes({ M: { a: s('xy'), bb: { BOOL: true } } })).toBe(3 + (1 + 2 + 1) + (2 + 1 + 1));
    expect(valueBytes({ SS: ['a', 'bc'] })).toBe(3);
    expect(valueBytes({ NS: ['12', '3'] })).toBe(2 + 2);
  });
});

describe('units', () => {
  it('charges a write 1 unit per KB, rounded up, at least 1', () => {
    expect(writeUnitsOf(0)).toBe(1);
    expect(writeUnitsOf(1024)).toBe(1);
    expect(writeUnitsOf(1025)).toBe(2);
    expect(writeUnitsOf(3007)).toBe(3);
  });

  it('charges a read 1 unit per 4 KB, rounded up, at least 1; half when eventually consistent', () => {
    expect(readUnitsOf(0, true)).toBe(1);
    expect(readUnitsOf(0, false)).toBe(0.5);
    expect(readUnitsOf(4096, true)).toBe(1);
    expect(readUnitsOf(4097, false)).toBe(1);
    expect(readUnitsOf(8193, true)).toBe(3);
  });
});

describe('index writes', () => {
  const score = (kills: string, extra: Item = {}): Item => ({
    pk: s('SCORE#g#W'),
    sk: s('PLAYER#p'),
    gsi4pk: s('KILLS#g#W'),
    gsi4sk: n(kills),
    gsi6pk: s('PLAYER#p'),
    gsi6sk: s('SCORE#g#W'),
    ...extra,
  });

  it('writes nothing to an index the item is in neither before nor after (a sparse index)', () => {
    expect(indexWriteBytes({ pk: s('A'), sk: s('B') }, { pk: s('A'), sk: s('B'), v: s('x') }, board, TABLE_KEYS)).toEqual([]);
  });

  it('puts the entry when the item enters, removes it when it leaves', () => {
    expect(indexWriteBytes(undefined, score('3'), board, TABLE_KEYS)).toEqual([itemBytes(score('3'))]);
    expect(indexWriteBytes(score('3'), undefined, board, TABLE_KEYS)).toEqual([itemBytes(score('3'))]);
  });

  it('moves the entry (removed and put: two writes) when an index key changes', () => {
    expect(indexWriteBytes(score('3'), score('5'), board, TABLE_KEYS)).toEqual([itemBytes(score('3')), itemBytes(score('5'))]);
  });

  it('rewrites an ALL index entry when another attribute changes, and leaves an unchanged one alone', () => {
    expect(indexWriteBytes(score('3'), score('3', { name: s('Ann') }), board, TABLE_KEYS)).toEqual([itemBytes(score('3', { name: s('Ann') }))]);
    expect(indexWriteBytes(score('3', { name: s('Ann') }), score('3', { name: s('Ann') }), board, TABLE_KEYS)).toEqual([]);
  });

  it('writes a keys-only index only when the item enters, leaves or its index keys change, an entry of the keys', () => {
    const keys = 2 + 9 + 2 + 8 + 6 + 8 + 6 + 9;
    expect(indexWriteBytes(undefined, score('3'), keysOnly, TABLE_KEYS)).toEqual([keys]);
    expect(indexWriteBytes(score('3'), score('5'), keysOnly, TABLE_KEYS)).toEqual([]);
  });
});

describe("an item's write", () => {
  const before: Item = { pk: s('SCORE#g#W'), sk: s('PLAYER#p'), gsi4pk: s('KILLS#g#W'), gsi4sk: n('3'), pad: s('x'.repeat(1500)) };
  const after: Item = { ...before, gsi4sk: n('5') };

  it('charges the larger of the item before and after, and each index write beside', () => {
    const units = itemWriteUnits('update', before, after, options);
    expect(units.table.units).toBe(2);
    expect(units.indexes).toEqual({ gsi4: { units: 4, bytes: itemBytes(before) + itemBytes(after) } });
    expect(itemWriteUnits('put', { pk: s('A'), sk: s('B') }, before, options).table.units).toBe(2);
  });

  it("doubles the table's part in a transaction, not the indexes'", () => {
    const units = itemWriteUnits('update', before, after, { ...options, transactional: true });
    expect(units.table.units).toBe(4);
    expect(units.indexes.gsi4?.units).toBe(4);
  });

  it('charges a ConditionCheck as a transactional write of the item it reads, at least 1 KB, and no index', () => {
    expect(itemWriteUnits('check', undefined, undefined, { ...options, transactional: true })).toEqual({ table: { units: 2, bytes: 0 }, indexes: {} });
    expect(itemWriteUnits('check', before, before, { ...options, transactional: true }).table.units).toBe(4);
  });

  it('charges a delete on the item deleted and removes its index entries', () => {
    const units = itemWriteUnits('delete', before, undefined, options);
    expect(units.table.units).toBe(2);
    expect(units.indexes.gsi4?.units).toBe(2);
  });

  it('charges a write whose condition failed on the item as it stayed, with no index write', () => {
    expect(itemWriteUnits('update', before, before, options)).toEqual({ table: { units: 2, bytes: itemBytes(before) }, indexes: {} });
  });
});
