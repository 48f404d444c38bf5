import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { JobFailed } from '../../core/platform/job-runs.js';
import type { DynamoConnection } from './dynamo.js';

/**
 * The local stand-in for a deployed subscription to the table's stream (infra/rank-pages.ts, infra/day-figures.ts):
 * reads the table's stream on DynamoDB Local, every shard from its oldest record (its parents' before it, as Lambda
 * does, or from its latest: `startAt`), and hands each GetRecords batch to `consumeBatch`, which keeps the
 * records its deployed filter lets through. Each consumer has a reader of its own, as each deployed subscription reads the stream on its own: one
 * that fails does not make the other read its batch again.
 */
export abstract class TableStreamReader {
  private readonly streams: DynamoDBStreamsClient;
  private readonly tables: DynamoDBClient;
  private streamArn?: string;
  /** Each shard's next iterator; null once a closed shard is read to its end. */
  private readonly iterators = new Map<string, string | null>();
  private running: Promise<number> = Promise.resolve(0);

  /** Shards are listed once at least: the first listing's are read from `startAt`, later ones from their start. */
  private listed = false;

  constructor(
    private readonly table: string,
    connection: DynamoConnection,
    /**
     * Where the shards the first pass finds are read from: their oldest record (a consumer whose applying is
     * idempotent, or that must see what was written before it was made), or their latest (one that counts, in a
     * process that starts before anything is written: nothing is read twice across restarts).
     */
    private readonly startAt: 'oldest' | 'latest' = 'oldest',
  ) {
    this.streams = new DynamoDBStreamsClient(connection);
    this.tables = new DynamoDBClient(connection);
  }

  /** What is done with one GetRecords batch (of any item): a failure leaves the reader before the batch. */
  protected abstract consumeBatch(records: StreamRecord[]): Promise<void>;

  /** Reads every shard until no record is left and consumes them; answers how many records were read (of any item). */
  drain(): Promise<number> {
    // One pass at a time: a test's drain waits for the loop's pass in flight instead of racing it.
    const pass = this.running.catch(() => 0).then(() => this.pass());
    this.running = pass;
    return pass;
  }

  private async pass(): Promise<number> {
    let read = 0;
    for (const shard of await readingStream(() => this.shardsInOrder())) {
      for (;;) {
        const iterator = this.iterators.get(shard.ShardId!);
        if (!iterator) break;
        const out = await readingStream(() => this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 })));
        const records = out.Records ?? [];
        // A failing consumer leaves the iterator where it was: the next pass reads the batch again.
        if (records.length > 0) await this.consumeBatch(records);
        this.iterators.set(shard.ShardId!, out.NextShardIterator ?? null);
        read += records.length;
        if (records.length === 0) break;
      }
    }
    return read;
  }

  /** The stream's shards, each after its parent, with an iterator at its oldest record for each new one. */
  private async shardsInOrder(): Promise<Shard[]> {
    this.streamArn ??= (await this.tables.send(new DescribeTableCommand({ TableName: this.table }))).Table?.LatestStreamArn;
    if (!this.streamArn) throw new Error(`table ${this.table} has no stream`);
    const shards: Shard[] = [];
    let start: string | undefined;
    do {
      const out = await this.streams.send(new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: start }));
      shards.push(...(out.StreamDescription?.Shards ?? []));
      start = out.StreamDescription?.LastEvaluatedShardId;
    } while (start);
    const ids = new Set(shards.map((shard) => shard.ShardId));
    const ordered: Shard[] = [];
    const placed = new Set<string>();
    const place = (shard: Shard) => {
      if (placed.has(shard.ShardId!)) return;
      const parent = shards.find((other) => other.ShardId === shard.ParentShardId);
      if (parent && ids.has(parent.ShardId)) place(parent);
      placed.add(shard.ShardId!);
      ordered.push(shard);
    };
    shards.forEach(place);
    for (const shard of ordered) {
      if (this.iterators.has(shard.ShardId!)) continue;
      const out = await this.streams.send(
        new GetShardIteratorCommand({
          StreamArn: this.streamArn,
          ShardId: shard.ShardId,
          ShardIteratorType: !this.listed && this.startAt === 'latest' ? 'LATEST' : 'TRIM_HORIZON',
        }),
      );
      this.iterators.set(shard.ShardId!, out.ShardIterator ?? null);
    }
    this.listed = true;
    return ordered;
  }
}

/**
 * A pass that failed reading the stream (describing the table or the stream, a shard iterator, GetRecords): no
 * batch was read, so no batch's run recorded it; the rank pages' loop records it as a run of its own
 * (startScoreStreamLoop).
 */
export class StreamReadFailed extends JobFailed {
  constructor(cause: unknown) {
    // The error's name only: its message may carry what a run's record must not (job-runs.ts runErrorOf); the
    // loop's log line has it all.
    const name = cause instanceof Error ? cause.name : 'Error';
    super('rank-pages.stream_read_failed', `rank pages: reading the table's stream failed (${name}); the next pass reads on from where this one stopped`);
    this.name = 'StreamReadFailed';
    this.cause = cause;
  }
}

async function readingStream<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw new StreamReadFailed(error);
  }
}
