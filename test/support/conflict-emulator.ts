import { TransactionCanceledException, TransactionConflictException, type AttributeValue, type CancellationReason } from '@aws-sdk/client-dynamodb';
import type { ResponseMetadata } from '@aws-sdk/types';
import { tableDefinition } from '../../core/platform/table.js';

/**
 * DynamoDB's transaction conflict rule, which DynamoDB Local does not apply (it runs one request at a time), as
 * an AWS SDK middleware for the tests and the bench (never deployed). The service:
 * - cancels a TransactWriteItems when one of its items (a ConditionCheck included) is part of another
 *   TransactWriteItems in flight: `TransactionCanceledException`, reason `TransactionConflict` for the items
 *   in conflict and `None` for the others;
 * - refuses a PutItem, UpdateItem or DeleteItem of an item that a TransactWriteItems in flight includes:
 *   `TransactionConflictException`;
 * - cancels a TransactGetItems that reads an item a TransactWriteItems in flight includes, the same way.
 * Here a transaction is "in flight" for `holdMs` from the moment it passes this middleware, standing in for
 * the real service's latency (a transaction does two phases on every item: tens of milliseconds); then it
 * goes to DynamoDB Local, which writes it. The window is that fixed time, not DynamoDB Local's answer time,
 * which grows with this machine's load: the service's window does not, and a test's outcome must not.
 *
 * Not emulated: BatchWriteItem against a transaction in flight (the project writes no item of a transaction
 * with it), and a transaction arriving while a single-item write is in flight (the service serialises those).
 *
 * The middleware sits in the build step, after the document client has marshalled its input, so keys are
 * always AttributeValues (a plain client and a document client look the same here), and before the retry
 * step, so the SDK's own retries do not apply to these errors, as they do not to the service's (both are 400s
 * that the SDK does not classify as retryable).
 */

export type TransactAction = 'Put' | 'Update' | 'Delete' | 'ConditionCheck';

/** An item of the table, by its primary key values as text. */
export interface ItemKey {
  table: string;
  pk: string;
  sk: string;
}

/** One TransactWriteItems as it passed the emulator; `cancelled` when the emulator refused it. */
export interface SentTransaction {
  items: (ItemKey & { action: TransactAction })[];
  cancelled: boolean;
}

/**
 * One PutItem, UpdateItem or DeleteItem as it passed the emulator; `refused` when a transaction in flight held
 * its item. For observers that count writes per item (the bench's load part), which transactions alone miss:
 * id counters, for one, are single-item writes.
 */
export interface SentWrite {
  item: ItemKey & { action: 'Put' | 'Update' | 'Delete' };
  refused: boolean;
}

export interface ConflictStats {
  /** TransactWriteItems that passed to DynamoDB Local. */
  transactions: number;
  /** TransactWriteItems cancelled with TransactionConflict. */
  cancelled: number;
  /** PutItem, UpdateItem and DeleteItem refused with TransactionConflictException. */
  refusedWrites: number;
  /** TransactGetItems cancelled with TransactionConflict. */
  cancelledReads: number;
}

export interface ConflictEmulatorOptions {
  /** How long a transaction keeps its items before DynamoDB Local writes them (default 15 ms). */
  holdMs?: number;
  /** The table's key attributes (default the project's table: pk, sk). */
  keySchema?: { partitionKey: string; sortKey: string };
}

/** Anything with the SDK's middleware stack: a DynamoDBClient, or a DynamoDBDocumentClient (which shares its client's). */
interface WithMiddlewareStack {
  middlewareStack: { add(middleware: unknown, options: { step: 'build'; name: string; override: boolean; tags?: string[] }): void };
}

const MIDDLEWARE_NAME = 'transactionConflictEmulator';
/** The service's text for an item of a transaction in flight. */
const ONGOING = 'Transaction is ongoing for the item';

/**
 * One emulated service: the clients attached to the same emulator see each other's transactions (as clients
 * of one table do), so the tests' and the bench's deps of one process share one (test/support/local-deps.ts).
 */
export class ConflictEmulator {
  readonly holdMs: number;
  private readonly keySchema: { partitionKey: string; sortKey: string };
  /** Item id -> held by a transaction in flight. At most one transaction holds an item: a second is cancelled. */
  private readonly held = new Set<string>();
  private readonly watchers = new Set<(transaction: SentTransaction) => void>();
  private readonly writeWatchers = new Set<(write: SentWrite) => void>();
  private readonly counts: ConflictStats = { transactions: 0, cancelled: 0, refusedWrites: 0, cancelledReads: 0 };

  constructor(options: ConflictEmulatorOptions = {}) {
    this.holdMs = options.holdMs ?? 15;
    this.keySchema = options.keySchema ?? { partitionKey: tableDefinition.partitionKey, sortKey: tableDefinition.sortKey };
  }

  /** Adds the middleware to a client (once per client: a second attach replaces the first). */
  attach(client: WithMiddlewareStack): void {
    client.middlewareStack.add(
      (next: (args: { input: unknown }) => Promise<unknown>, context: { commandName?: string }) => (args: { input: unknown }) =>
        this.handle(context.commandName ?? '', args.input as Record<string, unknown>, () => next(args)),
      { step: 'build', name: MIDDLEWARE_NAME, override: true, tags: ['TEST'] },
    );
  }

  /** Counts since this emulator was made; callers compare two snapshots. */
  stats(): ConflictStats {
    return { ...this.counts };
  }

  /** Calls `watcher` with every TransactWriteItems that passes or is cancelled; answers the way to stop. */
  watch(watcher: (transaction: SentTransaction) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** Calls `watcher` with every single-item write (PutItem, UpdateItem, DeleteItem); answers the way to stop. */
  watchWrites(watcher: (write: SentWrite) => void): () => void {
    this.writeWatchers.add(watcher);
    return () => this.writeWatchers.delete(watcher);
  }

  private async handle(command: string, input: Record<string, unknown>, send: () => Promise<unknown>): Promise<unknown> {
    switch (command) {
      case 'TransactWriteItemsCommand':
        return this.transactWrite(input, send);
      case 'TransactGetItemsCommand':
        return this.transactGet(input, send);
      case 'PutItemCommand':
      case 'UpdateItemCommand':
      case 'DeleteItemCommand':
        return this.singleWrite(command.replace(/ItemCommand$/, '') as SentWrite['item']['action'], input, send);
      default:
        return send();
    }
  }

  private async transactWrite(input: Record<string, unknown>, send: () => Promise<unknown>) {
    const items = (
      (input.TransactItems ?? []) as Record<string, { TableName: string; Key?: Record<string, AttributeValue>; Item?: Record<string, AttributeValue> }>[]
    ).map((entry) => {
      const action = Object.keys(entry)[0] as TransactAction;
      const body = entry[action]!;
      return { action, ...this.keyOf(body.TableName, body.Key ?? body.Item ?? {}) };
    });
    const ids = items.map(idOf);
    const inConflict = ids.map((id) => this.held.has(id));
    const cancelled = inConflict.some(Boolean);
    for (const watcher of this.watchers) watcher({ items, cancelled });
    if (cancelled) {
      this.counts.cancelled++;
      throw cancellation(inConflict, { Code: 'TransactionConflict', Message: ONGOING });
    }
    this.counts.transactions++;
    for (const id of ids) this.held.add(id);
    try {
      await new Promise((resolve) => setTimeout(resolve, this.holdMs));
    } finally {
      for (const id of ids) this.held.delete(id);
    }
    return send();
  }

  private async transactGet(input: Record<string, unknown>, send: () => Promise<unknown>) {
    const reads = (input.TransactItems ?? []) as { Get: { TableName: string; Key: Record<string, AttributeValue> } }[];
    const inConflict = reads.map(({ Get }) => this.held.has(idOf(this.keyOf(Get.TableName, Get.Key))));
    if (!inConflict.some(Boolean)) return send();
    this.counts.cancelledReads++;
    throw cancellation(inConflict, { Code: 'TransactionConflict', Message: ONGOING });
  }

  private async singleWrite(action: SentWrite['item']['action'], input: Record<string, unknown>, send: () => Promise<unknown>) {
    const key = this.keyOf(String(input.TableName), (input.Key ?? input.Item ?? {}) as Record<string, AttributeValue>);
    const refused = this.held.has(idOf(key));
    for (const watcher of this.writeWatchers) watcher({ item: { ...key, action }, refused });
    if (!refused) return send();
    this.counts.refusedWrites++;
    throw new TransactionConflictException({ message: ONGOING, $metadata: serviceMetadata() });
  }

  private keyOf(table: string, attributes: Record<string, AttributeValue>): ItemKey {
    return { table, pk: textOf(attributes[this.keySchema.partitionKey]), sk: textOf(attributes[this.keySchema.sortKey]) };
  }
}

/** Adds an emulator to `client` and answers it. */
export function emulateConflicts(client: WithMiddlewareStack, options: ConflictEmulatorOptions = {}): ConflictEmulator {
  const emulator = new ConflictEmulator(options);
  emulator.attach(client);
  return emulator;
}

const idOf = (key: ItemKey) => [key.table, key.pk, key.sk].join('\u0000');

/** A key attribute's value as text (key attributes are strings, numbers or binary); '' when absent (no sort key). */
export function textOf(value: AttributeValue | undefined): string {
  if (!value) return '';
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return value.N;
  if (value.B !== undefined) return Buffer.from(value.B).toString('base64');
  return JSON.stringify(value);
}

/**
 * The service's cancellation of a transaction: `reason` for the items flagged, `None` for the others, in the
 * transaction's order, the codes listed in the message too.
 */
export function cancellation(flagged: boolean[], reason: CancellationReason): TransactionCanceledException {
  const reasons: CancellationReason[] = flagged.map((flag) => (flag ? reason : { Code: 'None' }));
  const message = `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`;
  return new TransactionCanceledException({ message, Message: message, CancellationReasons: reasons, $metadata: serviceMetadata() });
}

/** The metadata of a 400 the service answered at the first attempt. */
export const serviceMetadata = (): ResponseMetadata => ({ httpStatusCode: 400, attempts: 1, totalRetryDelay: 0 });
