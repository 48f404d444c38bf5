import {
  PutItemCommand,
  TransactGetItemsCommand,
  TransactWriteItemsCommand,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactOrFailures, type TransactItem } from '../core/platform/transactions.js';
import { ConflictEmulator, type SentTransaction } from './support/conflict-emulator.js';
import { adminClient } from '../tools/local/dynamo.js';
import { createTestDeps, dropTables, dynamoEndpoint } from './support/deps.js';
import { createLocalDeps, type LocalDeps } from './support/local-deps.js';

/**
 * The emulated TransactionConflict rule (test/support/conflict-emulator.ts). Requests started together reach
 * the emulator before the first one's hold ends (nothing but promises lies between a send and the middleware),
 * so "together" here is not a matter of timing; a long hold makes that margin wide.
 */
let deps: LocalDeps;
let emulator: ConflictEmulator;

/** The tables this file writes its emulator's items to (`EMULATED#…`, no kind of the platform's). */
const tables: string[] = [];

/** Deps on a table of this file's own, dropped when the file ends. */
async function emulatorDeps(options: Parameters<typeof createLocalDeps>[1]) {
  const made = await createLocalDeps(dynamoEndpoint(), options);
  tables.push(made.table);
  return made;
}

beforeAll(async () => {
  emulator = new ConflictEmulator({ holdMs: 300 });
  deps = await emulatorDeps({ conflicts: emulator });
});

// Gone once the file has run: test/stored-items.test.ts holds every item the suite leaves to a declared kind.
afterAll(() => dropTables(tables));

const key = (name: string) => ({ pk: `EMULATED#${name}`, sk: 'ITEM' });
const put = (name: string): TransactItem => ({ Put: { TableName: deps.table, Item: { ...key(name), written: true } } });
const add = (name: string): TransactItem => ({
  Update: {
    TableName: deps.table,
    Key: key(name),
    UpdateExpression: 'ADD #n :one',
    ExpressionAttributeNames: { '#n': 'n' },
    ExpressionAttributeValues: { ':one': 1 },
  },
});
const check = (name: string): TransactItem => ({
  ConditionCheck: { TableName: deps.table, Key: key(name), ConditionExpression: 'attribute_not_exists(nope)' },
});
const send = (items: TransactItem[]) => deps.db.send(new TransactWriteCommand({ TransactItems: items }));
const stored = async (name: string) => (await deps.db.send(new GetCommand({ TableName: deps.table, Key: key(name), ConsistentRead: true }))).Item;
const unique = () => randomUUID().slice(0, 8);

describe('the conflict emulator', () => {
  it('cancels the second of two overlapping transactions as DynamoDB does, and writes the first', async () => {
    const [shared, a, b] = [unique(), unique(), unique()];
    // The shared item is first in one transaction and last in the other, so the reasons show which was cancelled.
    const results = await Promise.allSettled([send([put(shared), put(a)]), send([put(b), put(shared)])]);
    const cancelled = results.findIndex((result) => result.status === 'rejected');
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const error = (results[cancelled] as PromiseRejectedResult).reason;
    expect(error).toBeInstanceOf(TransactionCanceledException);
    expect(error).toMatchObject({ name: 'TransactionCanceledException', $fault: 'client', $metadata: { httpStatusCode: 400 } });
    const reasons = cancelled === 0 ? ['TransactionConflict', 'None'] : ['None', 'TransactionConflict'];
    expect(error.CancellationReasons.map((reason: { Code: string }) => reason.Code)).toEqual(reasons);
    expect(error.message).toBe(`Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.join(', ')}]`);
    // Only the transaction that went through wrote anything.
    expect(await stored(shared)).toBeDefined();
    expect(await stored(cancelled === 0 ? a : b)).toBeUndefined();
    expect(await stored(cancelled === 0 ? b : a)).toBeDefined();
  });

  it('lets transactions on different items through together', async () => {
    const before = emulator.stats();
    const names = Array.from({ length: 6 }, unique);
    await Promise.all(names.map((name) => send([put(name), put(`${name}-other`)])));
    for (const name of names) expect(await stored(name)).toBeDefined();
    expect(emulator.stats().cancelled).toBe(before.cancelled);
    expect(emulator.stats().transactions).toBe(before.transactions + 6);
  });

  it('counts a ConditionCheck as including its item', async () => {
    const [shared, a] = [unique(), unique()];
    const results = await Promise.allSettled([send([check(shared), put(a)]), send([add(shared)])]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('refuses a PutItem, UpdateItem or DeleteItem of an item a transaction in flight holds with TransactionConflictException', async () => {
    const [held, free] = [unique(), unique()];
    const transaction = send([put(held)]);
    const single = [
      deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...key(held), by: 'put' } })),
      deps.db.send(
        new UpdateCommand({
          TableName: deps.table,
          Key: key(held),
          UpdateExpression: 'SET #by = :by',
          ExpressionAttributeNames: { '#by': 'by' },
          ExpressionAttributeValues: { ':by': 'update' },
        }),
      ),
      deps.db.send(new DeleteCommand({ TableName: deps.table, Key: key(held) })),
    ];
    for (const result of await Promise.allSettled(single)) {
      expect(result.status).toBe('rejected');
      const error = (result as PromiseRejectedResult).reason;
      expect(error).toBeInstanceOf(TransactionConflictException);
      expect(error).toMatchObject({ name: 'TransactionConflictException', message: 'Transaction is ongoing for the item', $metadata: { httpStatusCode: 400 } });
    }
    await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...key(free), by: 'put' } }));
    await transaction;
    // Once the transaction has ended its item is free again, and it holds what the transaction wrote.
    expect(await stored(held)).toEqual({ ...key(held), written: true });
    await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: key(held) }));
    expect(await stored(held)).toBeUndefined();
  });

  it('applies to the plain client too (marshalled keys), sharing what is in flight with the document client', async () => {
    const plain = adminClient(deps.endpoint);
    emulator.attach(plain);
    const shared = unique();
    const marshalled = { pk: { S: key(shared).pk }, sk: { S: key(shared).sk } };
    const results = await Promise.allSettled([
      plain.send(new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: deps.table, Item: { ...marshalled, by: { S: 'plain' } } } }] })),
      send([put(shared)]),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    // A read transaction of an item a write transaction holds is cancelled the same way.
    const held = send([put(`${shared}-read`)]);
    const read = plain.send(
      new TransactGetItemsCommand({ TransactItems: [{ Get: { TableName: deps.table, Key: { pk: { S: key(`${shared}-read`).pk }, sk: { S: 'ITEM' } } } }] }),
    );
    await expect(read).rejects.toMatchObject({ name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'TransactionConflict' }] });
    await held;
    await expect(plain.send(new PutItemCommand({ TableName: deps.table, Item: { ...marshalled, by: { S: 'later' } } }))).resolves.toBeDefined();
  });

  it('reports every transaction to its watchers, cancelled or not', async () => {
    const seen: SentTransaction[] = [];
    const stop = emulator.watch((transaction) => seen.push(transaction));
    const shared = unique();
    await Promise.allSettled([send([put(shared)]), send([check(shared)])]);
    stop();
    expect(seen.map((t) => t.cancelled).sort()).toEqual([false, true]);
    expect(seen.flatMap((t) => t.items.map((item) => item.action)).sort()).toEqual(['ConditionCheck', 'Put']);
    expect(seen[0]!.items[0]).toMatchObject({ table: deps.table, pk: `EMULATED#${shared}`, sk: 'ITEM' });
  });
});

describe('the platform retry (transactOrFailures) under the emulated rule', () => {
  it('runs cancelled transactions again until every one is written once', async () => {
    const quick = new ConflictEmulator({ holdMs: 15 });
    const own = await emulatorDeps({ conflicts: quick });
    const counter = unique();
    const item = (i: number): TransactItem[] => [
      {
        Update: {
          TableName: own.table,
          Key: key(counter),
          UpdateExpression: 'ADD #n :one',
          ExpressionAttributeNames: { '#n': 'n' },
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
      { Put: { TableName: own.table, Item: { ...key(`${counter}-${i}`) }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ];
    const answers = await Promise.all([0, 1, 2].map((i) => transactOrFailures(own, item(i))));
    expect(answers).toEqual([[], [], []]);
    // Three started together on one item: at least two were cancelled at first, and each was written once.
    expect(quick.stats().cancelled).toBeGreaterThanOrEqual(2);
    expect(quick.stats().transactions).toBe(3);
    const total = await own.db.send(new GetCommand({ TableName: own.table, Key: key(counter), ConsistentRead: true }));
    expect(total.Item?.n).toBe(3);
  });

  it('answers 409 with the caller message when the item stays busy through every attempt', async () => {
    const slow = new ConflictEmulator({ holdMs: 2_000 });
    const own = await emulatorDeps({ conflicts: slow });
    const busy = unique();
    const holding = own.db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: own.table, Item: key(busy) } }] }));
    await expect(
      transactOrFailures(
        own,
        [
          {
            Update: {
              TableName: own.table,
              Key: key(busy),
              UpdateExpression: 'SET #x = :x',
              ExpressionAttributeNames: { '#x': 'x' },
              ExpressionAttributeValues: { ':x': 1 },
            },
          },
        ],
        'busy: retry',
      ),
    ).rejects.toMatchObject({ kind: 'Conflict', message: 'busy: retry' });
    // The platform's retry gives up after five attempts, each cancelled.
    expect(slow.stats().cancelled).toBe(5);
    await holding;
  });
});

describe("the tests' deps", () => {
  it.skipIf(process.env.CONFLICT_EMULATION === 'off')('run under the emulator unless turned off', async () => {
    const standard = await createTestDeps();
    expect(standard.conflicts).toBeInstanceOf(ConflictEmulator);
    const off = await emulatorDeps({ conflicts: false });
    expect(off.conflicts).toBeUndefined();
    // Without it, DynamoDB Local runs overlapping transactions one after the other: both are written.
    const shared = { pk: `EMULATED#${unique()}`, sk: 'ITEM' };
    const twice = Array.from({ length: 2 }, () =>
      off.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: off.table,
                Key: shared,
                UpdateExpression: 'ADD #n :one',
                ExpressionAttributeNames: { '#n': 'n' },
                ExpressionAttributeValues: { ':one': 1 },
              },
            },
          ],
        }),
      ),
    );
    await Promise.all(twice);
    expect((await off.db.send(new GetCommand({ TableName: off.table, Key: shared, ConsistentRead: true }))).Item?.n).toBe(2);
  });
});
