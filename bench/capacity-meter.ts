import { type AttributeValue, type ConsumedCapacity, type DynamoDBClient, GetItemCommand, QueryCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { tableDefinition } from '../core/platform/table.js';
import { adminClient } from '../tools/local/dynamo.js';
import { type IndexShape, type Item, itemBytes, itemWriteUnits, readUnitsOf, type WriteKind } from './capacity.js';

/**
 * Counts, while on, the write and read units the requests of a client cost on DynamoDB's on-demand billing
 * (bench/capacity.ts has the rules), from the items they actually wrote and read. A middleware on the client
 * sees each request as sent (after the SDK's retries split it into attempts: each attempt is charged); for a
 * write it reads every item the request names before and after it, for a read the whole items it read (a
 * projection does not lower the bill, and a Query's filter drops items after they were read), with a client
 * of its own that nothing counts.
 *
 * It also asks DynamoDB Local for its own figure (`ReturnConsumedCapacity: INDEXES`) and keeps it beside ours.
 * DynamoDB Local does report one, computed from item sizes, and agrees with these rules on single-item reads
 * and writes, Queries with items and index moves; where it parts from DynamoDB's documented or measured billing
 * the bench keeps its own rules: DynamoDB Local rounds a TransactWriteItems once on the sum of its items
 * (DynamoDB rounds each item), charges nothing for an empty Query and for a BatchGetItem key that is not there
 * (DynamoDB charges the minimum read), and doubles a transaction's index writes (DynamoDB doubles the table's
 * part only). docs/performance.md "What each operation costs" has the comparison.
 *
 * The output this middleware sees is the document client's (plain values): what it charges it reads again.
 */

/** One item read or written, or one Query's read: what a request was charged for. */
export interface Charge {
  command: string;
  /** The item's key, shortened to the first segment of each part (`USER#… BAL`), or the Query's partition. */
  key: string;
  /** `table` or an index name. */
  target: string;
  /** The bytes charged on: the item (the larger of before and after), a Query's items, or an index's entries written (both, when one moved). */
  bytes: number;
  write: number;
  read: number;
}

export interface CapacityTally {
  write: number;
  read: number;
  /** What each item written or read cost. */
  charges: Charge[];
  /** DynamoDB Local's own figure for the same requests (`ConsumedCapacity`), write and read. */
  local: { write: number; read: number };
  /** Requests that failed (a condition not met, a transaction cancelled), charged on the items as they stayed. */
  failed: number;
  /** Per request: its command, our units and DynamoDB Local's, where they differ (the comparison docs/performance.md reports). */
  differences: { command: string; units: number; local: number }[];
}

const TABLE_KEYS = [tableDefinition.partitionKey, tableDefinition.sortKey] as const;
const INDEXES: IndexShape[] = Object.entries(tableDefinition.indexes).map(([name, [partitionKey, sortKey]]) => ({
  name,
  partitionKey,
  sortKey,
  keysOnly: (tableDefinition.keysOnly as readonly string[]).includes(name),
}));

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand']);
const READS = new Set(['GetItemCommand', 'BatchGetItemCommand', 'TransactGetItemsCommand', 'QueryCommand', 'ScanCommand']);

interface Stack {
  add(middleware: unknown, options: { step: 'initialize' | 'finalizeRequest'; priority?: 'low'; name: string; override: boolean; tags?: string[] }): void;
  remove(name: string): boolean;
}

type Input = Record<string, unknown>;
type Next = (args: { input: Input }) => Promise<{ output?: { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] } & Record<string, unknown> }>;

/** The first segment of a key part: `USER#3f…` -> `USER#…` (an attribute value, or a plain one as the document client answers). */
const shorten = (value: AttributeValue | string | number | undefined) => {
  const text = typeof value === 'object' ? (value.S ?? value.N ?? '') : String(value ?? '');
  const cut = text.indexOf('#');
  return cut < 0 ? (text.length > 24 ? `${text.slice(0, 8)}…` : text) : `${text.slice(0, cut)}#…`;
};
const keyLabel = (key: Record<string, AttributeValue | string | number>) => `${shorten(key[TABLE_KEYS[0]])} ${shorten(key[TABLE_KEYS[1]])}`.trim();
const keyOf = (item: Item): Item => Object.fromEntries(TABLE_KEYS.filter((k) => item[k] !== undefined).map((k) => [k, item[k]!]));

/** The names (`#n`) and values (`:v`) an expression uses, to send a Query's key condition alone (DynamoDB refuses unused ones). */
function usedBy(expression: string, input: Input) {
  const names = input.ExpressionAttributeNames as Record<string, string> | undefined;
  const values = input.ExpressionAttributeValues as Item | undefined;
  const pick = <T>(map: Record<string, T> | undefined) => {
    if (!map) return undefined;
    const kept = Object.fromEntries(
      Object.entries(map).filter(([token]) => new RegExp(`${token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`).test(expression)),
    );
    return Object.keys(kept).length ? kept : undefined;
  };
  return { ExpressionAttributeNames: pick(names), ExpressionAttributeValues: pick(values) };
}

/** Sums a response's `ConsumedCapacity` (one or a list). */
function localUnits(consumed: ConsumedCapacity | ConsumedCapacity[] | undefined): number {
  if (!consumed) return 0;
  return (Array.isArray(consumed) ? consumed : [consumed]).reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
}

/** Attaches the meter to `client` (the deps' document client or its DynamoDB client: they share one middleware stack). */
export function capacityMeter(client: { middlewareStack: unknown }, endpoint: string) {
  const raw: DynamoDBClient = adminClient(endpoint);
  let tally: CapacityTally | undefined;
  const pending = new Set<Promise<unknown>>();
  const stack = client.middlewareStack as Stack;

  const get = async (table: string, key: Item): Promise<Item | undefined> =>
    (await raw.send(new GetItemCommand({ TableName: table, Key: keyOf(key), ConsistentRead: true }))).Item;

  const charge = (t: CapacityTally, c: Charge) => {
    t.charges.push(c);
    t.write += c.write;
    t.read += c.read;
  };

  /** The items a write names, as [action, table, key] (a Put's key from its item). */
  function writesOf(command: string, input: Input): { kind: WriteKind; table: string; key: Item; transactional: boolean }[] {
    const one = (kind: WriteKind, body: Input, transactional: boolean) => ({
      kind,
      table: String(body.TableName),
      key: keyOf((body.Key ?? body.Item) as Item),
      transactional,
    });
    switch (command) {
      case 'PutItemCommand':
        return [one('put', input, false)];
      case 'UpdateItemCommand':
        return [one('update', input, false)];
      case 'DeleteItemCommand':
        return [one('delete', input, false)];
      case 'BatchWriteItemCommand':
        return Object.entries(input.RequestItems as Record<string, Record<string, Input>[]>).flatMap(([table, requests]) =>
          requests.map((request) =>
            request.PutRequest
              ? one('put', { TableName: table, ...request.PutRequest }, false)
              : one('delete', { TableName: table, ...request.DeleteRequest }, false),
          ),
        );
      case 'TransactWriteItemsCommand':
        return (input.TransactItems as Record<string, Input>[]).map((entry) => {
          const [action, body] = Object.entries(entry)[0]!;
          const kind = ({ Put: 'put', Update: 'update', Delete: 'delete', ConditionCheck: 'check' } as const)[action as 'Put'];
          return one(kind, body, true);
        });
      default:
        return [];
    }
  }

  async function metreWrite(t: CapacityTally, command: string, input: Input, send: () => ReturnType<Next>) {
    const writes = writesOf(command, input);
    const before = await Promise.all(writes.map((w) => get(w.table, w.key)));
    let result: Awaited<ReturnType<Next>> | undefined;
    let failure: unknown;
    try {
      result = await send();
    } catch (error) {
      failure = error;
    }
    // A BatchWriteItem's unprocessed items were not written, nor charged (the output is the document client's, plain values).
    const unprocessed = new Set(
      Object.values((result?.output?.UnprocessedItems ?? {}) as Record<string, Record<string, Input>[]>).flatMap((requests) =>
        requests.map((r) => keyLabel(((r.PutRequest as Input | undefined)?.Item ?? (r.DeleteRequest as Input | undefined)?.Key) as Record<string, string>)),
      ),
    );
    const after = await Promise.all(writes.map((w) => get(w.table, w.key)));
    if (failure) t.failed++;
    const first = t.charges.length;
    writes.forEach((w, i) => {
      if (unprocessed.has(keyLabel(w.key))) return;
      const units = itemWriteUnits(w.kind, before[i], after[i], { transactional: w.transactional, indexes: INDEXES, tableKeys: TABLE_KEYS });
      const name = command.replace(/Command$/, '') + (w.transactional ? ` ${w.kind}` : '');
      charge(t, { command: name, key: keyLabel(w.key), target: 'table', bytes: units.table.bytes, write: units.table.units, read: 0 });
      for (const [index, entry] of Object.entries(units.indexes)) {
        charge(t, { command: name, key: keyLabel(w.key), target: index, bytes: entry.bytes, write: entry.units, read: 0 });
      }
    });
    const local = localUnits(result?.output?.ConsumedCapacity);
    t.local.write += local;
    const ours = t.charges.slice(first).reduce((sum, c) => sum + c.write, 0);
    if (!failure && ours !== local) t.differences.push({ command: command.replace(/Command$/, ''), units: ours, local });
    if (failure) throw failure;
    return result!;
  }

  async function metreRead(t: CapacityTally, command: string, input: Input, send: () => ReturnType<Next>) {
    const result = await send();
    const output = (result.output ?? {}) as Record<string, unknown>;
    const name = command.replace(/Command$/, '');
    const charged: Charge[] = [];
    const byKey = async (table: string, key: Item, consistent: boolean, transactional: boolean) => {
      const item = await get(table, key);
      const bytes = itemBytes(item);
      charged.push({ command: name, key: keyLabel(key), target: 'table', bytes, write: 0, read: readUnitsOf(bytes, consistent) * (transactional ? 2 : 1) });
    };
    if (command === 'GetItemCommand') {
      await byKey(String(input.TableName), input.Key as Item, input.ConsistentRead === true, false);
    } else if (command === 'BatchGetItemCommand') {
      const unprocessed = output.UnprocessedKeys as Record<string, { Keys?: Record<string, string>[] }> | undefined;
      for (const [table, request] of Object.entries(input.RequestItems as Record<string, { Keys: Item[]; ConsistentRead?: boolean }>)) {
        const skipped = new Set((unprocessed?.[table]?.Keys ?? []).map(keyLabel));
        await Promise.all(request.Keys.filter((k) => !skipped.has(keyLabel(k))).map((k) => byKey(table, k, request.ConsistentRead === true, false)));
      }
    } else if (command === 'TransactGetItemsCommand') {
      const gets = (input.TransactItems as { Get: { TableName: string; Key: Item } }[]).map((e) => e.Get);
      await Promise.all(gets.map((g) => byKey(g.TableName, g.Key, true, true)));
    } else {
      // The same Query or Scan, its key condition alone: the items it read, whole (or the index's entries).
      const condition = String(input.KeyConditionExpression ?? '');
      const again: Input = {
        TableName: input.TableName,
        IndexName: input.IndexName,
        ConsistentRead: input.ConsistentRead,
        ExclusiveStartKey: input.ExclusiveStartKey,
        Limit: input.Limit,
        ScanIndexForward: input.ScanIndexForward,
        Segment: input.Segment,
        TotalSegments: input.TotalSegments,
        ...(condition ? { KeyConditionExpression: condition, ...usedBy(condition, input) } : {}),
      };
      const read =
        command === 'QueryCommand'
          ? await raw.send(new QueryCommand(again as unknown as ConstructorParameters<typeof QueryCommand>[0]))
          : await raw.send(new ScanCommand(again as unknown as ConstructorParameters<typeof ScanCommand>[0]));
      const bytes = (read.Items ?? []).reduce((sum, item) => sum + itemBytes(item), 0);
      const partition = (read.Items?.[0] ?? {}) as Item;
      const count = (read.Items ?? []).length;
      const key = `${input.IndexName ? String(input.IndexName) : count ? shorten(partition[TABLE_KEYS[0]]) : 'table'} ${count} items`;
      charged.push({
        command: name,
        key,
        target: String(input.IndexName ?? 'table'),
        bytes,
        write: 0,
        read: readUnitsOf(bytes, input.ConsistentRead === true),
      });
    }
    for (const c of charged) charge(t, c);
    const local = localUnits(output.ConsumedCapacity as ConsumedCapacity | ConsumedCapacity[] | undefined);
    t.local.read += local;
    const ours = charged.reduce((sum, c) => sum + c.read, 0);
    if (ours !== local) t.differences.push({ command: name, units: ours, local });
    return result;
  }

  // Asks DynamoDB Local for its figure, before the document client marshals the input (the field passes as is).
  stack.add(
    (next: Next, context: { commandName?: string }) => (args: { input: Input }) => {
      const command = context.commandName ?? '';
      if (tally && (WRITES.has(command) || READS.has(command))) args.input = { ...args.input, ReturnConsumedCapacity: 'INDEXES' };
      return next(args);
    },
    { step: 'initialize', name: 'capacityMeterAsk', override: true, tags: ['BENCH'] },
  );
  stack.add(
    (next: Next, context: { commandName?: string }) => (args: { input: Input }) => {
      const command = context.commandName ?? '';
      const t = tally;
      if (!t || !(WRITES.has(command) || READS.has(command))) return next(args);
      const metred = WRITES.has(command) ? metreWrite(t, command, args.input, () => next(args)) : metreRead(t, command, args.input, () => next(args));
      pending.add(metred);
      void metred.catch(() => {}).finally(() => pending.delete(metred));
      return metred;
    },
    { step: 'finalizeRequest', priority: 'low', name: 'capacityMeter', override: true, tags: ['BENCH'] },
  );

  return {
    start: () => void (tally = { write: 0, read: 0, charges: [], local: { write: 0, read: 0 }, failed: 0, differences: [] }),
    /** Stops counting once every request it saw is charged, and answers the tally. */
    stop: async (): Promise<CapacityTally> => {
      const t = tally ?? { write: 0, read: 0, charges: [], local: { write: 0, read: 0 }, failed: 0, differences: [] };
      await Promise.allSettled([...pending]);
      tally = undefined;
      return t;
    },
    /** Takes the middleware off the client (the later parts' timings then run without it). */
    detach: () => {
      stack.remove('capacityMeterAsk');
      stack.remove('capacityMeter');
      raw.destroy();
    },
  };
}
