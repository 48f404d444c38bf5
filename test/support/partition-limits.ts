import { ProvisionedThroughputExceededException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { tableDefinition } from '../../core/platform/table.js';
import { cancellation, serviceMetadata, textOf } from './conflict-emulator.js';

/**
 * DynamoDB's per-partition write limit, which DynamoDB Local does not apply, as an AWS SDK middleware for the
 * tests and the bench (never deployed), beside the transaction conflict rule (conflict-emulator.ts). The service
 * takes about 1,000 writes a second per partition key, of the table and of each global secondary index; here the
 * limit is a setting (`writesPerSecond`, scaled down to what this machine can drive), over a sliding second.
 *
 * What one write counts against: the item's table partition, and for each index the partition of the item's
 * index key, as the write sets it or as the item had it (the index projects every attribute, so every write of
 * an indexed item rewrites its index entry; a delete removes it). The index keys an item has are learned from
 * the writes that pass here, which in a test or bench run are all of them.
 *
 * Over the limit, a write is refused as the service refuses it: a single write with
 * `ProvisionedThroughputExceededException` (the SDK's retry applies, as to the service's: this middleware sits
 * after the SDK's retry step, so each attempt is counted), a transaction with `TransactionCanceledException`
 * and reason `ThrottlingError` for its items over the limit (not retried by the SDK; the platform answers its
 * documented 503). A refused write counts against nothing.
 */
export interface PartitionStats {
  /** Writes (a transaction's items each) that passed. */
  accepted: number;
  /** Writes refused over the limit (a transaction refused counts its items over it). */
  throttled: number;
  /** The most writes any one partition passed within a second, and which. */
  hottest: { partition: string; perSecond: number };
}

interface WithMiddlewareStack {
  middlewareStack: { add(middleware: unknown, options: { step: 'finalizeRequest'; priority: 'low'; name: string; override: boolean; tags?: string[] }): void };
}

type Attributes = Record<string, AttributeValue>;
interface WriteBody {
  TableName: string;
  Key?: Attributes;
  Item?: Attributes;
  UpdateExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Attributes;
}

const WINDOW_MS = 1000;

export class PartitionLimits {
  private readonly windows = new Map<string, number[]>();
  /** Item id -> its index partition per index, as last written. */
  private readonly indexKeys = new Map<string, Record<string, string>>();
  private readonly counts: PartitionStats = { accepted: 0, throttled: 0, hottest: { partition: '', perSecond: 0 } };

  constructor(
    readonly writesPerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  attach(client: WithMiddlewareStack): void {
    client.middlewareStack.add(
      (next: (args: { input: unknown }) => Promise<unknown>, context: { commandName?: string }) => (args: { input: unknown }) =>
        this.handle(context.commandName ?? '', args.input as Record<string, unknown>, () => next(args)),
      { step: 'finalizeRequest', priority: 'low', name: 'partitionLimits', override: true, tags: ['TEST'] },
    );
  }

  stats(): PartitionStats {
    return { ...this.counts, hottest: { ...this.counts.hottest } };
  }

  private handle(command: string, input: Record<string, unknown>, send: () => Promise<unknown>): Promise<unknown> {
    if (command === 'TransactWriteItemsCommand') {
      const entries = (input.TransactItems ?? []) as Record<string, WriteBody>[];
      const writes = entries.map((entry) => {
        const [action, body] = Object.entries(entry)[0]!;
        return action === 'ConditionCheck' ? undefined : this.partitionsOf(action, body!);
      });
      const over = writes.map((write) => write?.partitions.some((p) => this.full(p)) === true);
      if (over.some(Boolean)) {
        this.counts.throttled += over.filter(Boolean).length;
        return Promise.reject(cancellation(over, { Code: 'ThrottlingError', Message: 'Throughput exceeds the current capacity of your table or index.' }));
      }
      for (const write of writes) if (write) this.accept(write);
      return send();
    }
    const action = { PutItemCommand: 'Put', UpdateItemCommand: 'Update', DeleteItemCommand: 'Delete' }[command];
    if (!action) return send();
    const write = this.partitionsOf(action, input as unknown as WriteBody);
    if (write.partitions.some((p) => this.full(p))) {
      this.counts.throttled++;
      return Promise.reject(
        new ProvisionedThroughputExceededException({
          message:
            'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
          $metadata: serviceMetadata(),
        }),
      );
    }
    this.accept(write);
    return send();
  }

  /** The partitions a write counts against, and the index keys its item has afterwards. */
  private partitionsOf(action: string, body: WriteBody) {
    const attributes = body.Key ?? body.Item ?? {};
    const pk = textOf(attributes[tableDefinition.partitionKey]);
    const id = `${body.TableName}\u0000${pk}\u0000${textOf(attributes[tableDefinition.sortKey])}`;
    const before = this.indexKeys.get(id) ?? {};
    const after: Record<string, string> = action === 'Delete' ? {} : action === 'Put' ? {} : { ...before };
    const set = action === 'Update' ? assignments(body) : action === 'Put' ? (body.Item ?? {}) : {};
    for (const [index, [indexPk]] of Object.entries(tableDefinition.indexes)) {
      const value = set[indexPk];
      if (value !== undefined) after[index] = textOf(value);
    }
    const partitions = new Set([`${body.TableName} ${pk}`]);
    for (const keys of [before, after]) for (const [index, value] of Object.entries(keys)) partitions.add(`${body.TableName}.${index} ${value}`);
    return { id, after, partitions: [...partitions] };
  }

  private full(partition: string): boolean {
    return this.recent(partition).length >= this.writesPerSecond;
  }

  private recent(partition: string): number[] {
    const since = this.now() - WINDOW_MS;
    const times = (this.windows.get(partition) ?? []).filter((t) => t > since);
    this.windows.set(partition, times);
    return times;
  }

  private accept(write: { id: string; after: Record<string, string>; partitions: string[] }) {
    this.counts.accepted++;
    if (Object.keys(write.after).length > 0) this.indexKeys.set(write.id, write.after);
    else this.indexKeys.delete(write.id);
    for (const partition of write.partitions) {
      const times = this.recent(partition);
      times.push(this.now());
      if (times.length > this.counts.hottest.perSecond) this.counts.hottest = { partition, perSecond: times.length };
    }
  }
}

/** The attributes an UpdateExpression's SET clause assigns a value placeholder (`name = :value`), by name. */
function assignments(body: WriteBody): Attributes {
  const set = /(?:^|\s)SET\s+(.*?)(?=\s+(?:ADD|REMOVE|DELETE)\s|$)/is.exec(body.UpdateExpression ?? '')?.[1] ?? '';
  const out: Attributes = {};
  for (const part of set.split(',')) {
    const match = /^\s*(#?[\w]+)\s*=\s*(:[\w]+)\s*$/.exec(part);
    if (!match) continue;
    const name = match[1]!.startsWith('#') ? body.ExpressionAttributeNames?.[match[1]!] : match[1];
    const value = body.ExpressionAttributeValues?.[match[2]!];
    if (name && value) out[name] = value;
  }
  return out;
}
