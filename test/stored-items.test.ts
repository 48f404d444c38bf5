import { describe, expect, it } from 'vitest';
import { exactly, fitsKey, type ItemKind, startsWith } from '../core/platform/item-kinds.js';
import { tableDefinition } from '../core/platform/table.js';
import { ITEM_KINDS } from '../core/privacy/player-kinds.js';
import { scanSuiteTables } from './support/suite-tables.js';

/**
 * Every item the suite's tables keep is of exactly one declared kind (core/<domain>/items.ts): its keys fit the
 * kind's shapes and its `type` is the kind's (an item without one is of a kind that declares none), it carries the
 * attributes of no index the kind does not declare, and it parses with the kind's model. This file runs in the walk
 * group after every other test file (vitest.config.ts) and reads every table they left.
 */

type Kind = ItemKind<never>;

/** The kinds an item could be of: its keys fit their shapes, and their `type` is its own (or both have none). */
function kindsOf(item: Record<string, unknown>, kinds: readonly Kind[]): Kind[] {
  return kinds.filter((kind) => fitsKey(kind.keys.pk, item.pk) && fitsKey(kind.keys.sk, item.sk) && kind.type === item.type);
}

const INDEX_ATTRIBUTES = Object.entries(tableDefinition.indexes).map(([index, attributes]) => [index, attributes] as const);

/** What is wrong with an item as one of `kind` (none: nothing). */
function departures(item: Record<string, unknown>, kind: Kind): string[] {
  const found: string[] = [];
  for (const [index, attributes] of INDEX_ATTRIBUTES)
    if (attributes.some((name) => name in item) && !(kind.indexes as readonly string[] | undefined)?.includes(index))
      found.push(`an entry in ${index}, which it does not declare`);
  try {
    kind.model.parse(item);
  } catch (error) {
    found.push(`does not parse with its model: ${String(error).slice(0, 300)}`);
  }
  return found;
}

describe('an item and its kind', () => {
  const anything = { parse: (item: unknown) => item };
  const ledger: Kind = {
    name: 'ledger',
    type: 'ledger',
    keys: { pk: startsWith('USER#'), sk: startsWith('LEDGER#') },
    model: anything,
    player: { holdsNoPlayerData: true },
  };
  const counter: Kind = {
    name: 'counter',
    keys: { pk: startsWith('COUNTER#'), sk: exactly('COUNTER') },
    indexes: ['gsi1'],
    model: anything,
    player: { holdsNoPlayerData: true },
  };
  const parsed: Kind = {
    ...counter,
    name: 'parsed',
    model: {
      parse: (item) => {
        if (typeof (item as { n?: unknown }).n !== 'number') throw new Error('n is not a number');
        return item;
      },
    },
  };

  it('is known by its keys and its type, and a typed item is never of an untyped kind', () => {
    expect(kindsOf({ pk: 'USER#u1', sk: 'LEDGER#x', type: 'ledger' }, [ledger, counter])).toEqual([ledger]);
    expect(kindsOf({ pk: 'USER#u1', sk: 'LEDGER#x' }, [ledger, counter])).toEqual([]);
    expect(kindsOf({ pk: 'COUNTER#orders', sk: 'COUNTER', type: 'counter' }, [ledger, counter])).toEqual([]);
    expect(kindsOf({ pk: 'COUNTER#orders', sk: 'COUNTER2' }, [ledger, counter])).toEqual([]);
    expect(kindsOf({ pk: 'COUNTER#orders', sk: 'COUNTER' }, [ledger, counter, parsed])).toEqual([counter, parsed]);
  });

  it('names an index it is in that its kind does not declare, and a model it does not parse with', () => {
    expect(departures({ pk: 'COUNTER#a', sk: 'COUNTER', gsi1pk: 'x', gsi1sk: 'y' }, counter)).toEqual([]);
    expect(departures({ pk: 'USER#u', sk: 'LEDGER#1', gsi6pk: 'x' }, ledger)).toEqual(['an entry in gsi6, which it does not declare']);
    expect(departures({ pk: 'COUNTER#a', sk: 'COUNTER', n: 1 }, parsed)).toEqual([]);
    expect(departures({ pk: 'COUNTER#a', sk: 'COUNTER', n: '1' }, parsed)).toEqual([expect.stringContaining('n is not a number')]);
  });
});

describe("the run's tables", () => {
  it('hold only items of exactly one declared kind, in the indexes it declares, parsing with its model', async () => {
    const problems = new Map<string, { count: number; example: string }>();
    const seen = new Set<Kind>();
    const note = (what: string, item: Record<string, unknown>) => {
      const entry = problems.get(what) ?? { count: 0, example: `${String(item.pk)} ${String(item.sk)}` };
      entry.count++;
      problems.set(what, entry);
    };
    const scanned = await scanSuiteTables((_table, item) => {
      const kinds = kindsOf(item, ITEM_KINDS);
      if (kinds.length !== 1) {
        const of = kinds.length === 0 ? 'no declared kind' : `${kinds.length} kinds (${kinds.map((kind) => kind.name).join(', ')})`;
        // By the partition's prefix too, so that items of different sources are not counted as one.
        const prefix = String(item.pk).split('#')[0];
        note(`an item${item.type === undefined ? ' without a type' : ` of type '${String(item.type)}'`} in a partition ${prefix}… is of ${of}`, item);
        return;
      }
      seen.add(kinds[0]!);
      for (const departure of departures(item, kinds[0]!)) note(`${kinds[0]!.name}: ${departure}`, item);
    });
    expect(scanned, 'run this file with the whole suite (npm test)').toBeDefined();
    console.log(`stored items: ${scanned!.items} items in ${scanned!.tables} tables, of ${seen.size} of ${ITEM_KINDS.length} declared kinds`);
    expect([...problems].map(([what, { count, example }]) => `${what}: ${count} items, as ${example}`).sort()).toEqual([]);
    // Not vacuous: the suite stores items of most kinds.
    expect(seen.size).toBeGreaterThan(ITEM_KINDS.length * 0.8);
  }, 300_000);
});
