import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { PlatformDeps } from '../../core/platform/deps.js';
import { JobFailed, recordFailedRun } from '../../core/platform/job-runs.js';
import { repeatEvery, type Loop } from '../../core/platform/loop.js';
import { applyItemChanges, type ItemChange, RecordsSkipped, recordedRankBatch } from '../../core/rankings/rank-stream.js';
import { logSkippedRecord, readScoreRecords, type StreamImages } from '../../core/rankings/stream-filter.js';
import type { DynamoConnection } from './dynamo.js';

/**
 * The local stand-in for the deployed stream subscription (infra/rank-pages.ts): reads the table's stream on
 * DynamoDB Local, every shard from its oldest record (its parents' before it, as Lambda does), keeps the records
 * the deployed filter lets through (score items', core/rankings/stream-filter.ts: judged on their keys, so no
 * other item's images are decoded), and hands each GetRecords batch's to a consumer: the loop's records it as
 * the deployed function does (startScoreStreamLoop); by default (a test's drain) it is applied unrecorded.
 * Applying is idempotent (core/rankings/rank-head.ts), so starting again from the oldest record after a
 * restart changes nothing.
 *
 * A score record that cannot be read (an image GetRecords gives in a form that does not decode, or that is not a
 * score item) is skipped: logged once, counted for the consumer as `unreadable`, and the rest of its batch is
 * given, as the deployed consumer does (functions/rank-pages.ts): no record may hold up the records behind it,
 * nor the loop.
 */
export class ScoreStreamReader {
  private readonly streams: DynamoDBStreamsClient;
  private readonly tables: DynamoDBClient;
  private streamArn?: string;
  /** Each shard's next iterator; null once a closed shard is read to its end. */
  private readonly iterators = new Map<string, string | null>();
  /** The sequence numbers of the records skipped and logged: a batch read again (its consumer failed) logs them no more. */
  private readonly skipped = new Set<string>();
  private running: Promise<number> = Promise.resolve(0);

  constructor(
    private readonly deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>,
    connection: DynamoConnection,
    /** What is done with each batch's score records: the boards' head consumer, unless a test collects them. */
    private readonly consume: (changes: ItemChange[], unreadable: number) => Promise<unknown> = (changes) => applyItemChanges(deps, changes),
  ) {
    this.streams = new DynamoDBStreamsClient(connection);
    this.tables = new DynamoDBClient(connection);
  }

  /** Reads every shard until no record is left and applies them; answers how many records were read (of any item). */
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
        const { changes, unreadable } = await this.scoreChanges(records);
        // A failing consumer leaves the iterator where it was: the next pass reads the batch again.
        if (changes.length > 0 || unreadable > 0) await this.consume(changes, unreadable);
        this.iterators.set(shard.ShardId!, out.NextShardIterator ?? null);
        read += records.length;
        if (records.length === 0) break;
      }
    }
    return read;
  }

  /** A batch's score records read, in order, and how many of them could not be (each logged the first time). */
  private scoreChanges(records: StreamRecord[]): Promise<{ changes: ItemChange[]; unreadable: number }> {
    return readScoreRecords(
      records.map((record) => (record.dynamodb ?? {}) as StreamImages),
      async (images, error) => {
        const sequence = images.SequenceNumber ?? '';
        if (this.skipped.has(sequence)) return;
        this.skipped.add(sequence);
        await logSkippedRecord(images, error);
      },
    );
  }

  /** The stream's shards, each after its parent, with an iterator at its oldest record for each new one. */
  private async shardsInOrder(): Promise<Shard[]> {
    this.streamArn ??= (await this.tables.send(new DescribeTableCommand({ TableName: this.deps.table }))).Table?.LatestStreamArn;
    if (!this.streamArn) throw new Error(`table ${this.deps.table} has no stream`);
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
        new GetShardIteratorCommand({ StreamArn: this.streamArn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON' }),
      );
      this.iterators.set(shard.ShardId!, out.ShardIterator ?? null);
    }
    return ordered;
  }
}

/**
 * A pass that failed reading the stream (describing the table or the stream, a shard iterator, GetRecords): no
 * batch was read, so no batch's run recorded it; the loop records it as a run of its own (startScoreStreamLoop).
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

/**
 * What the local server's loop does with each GetRecords batch: its score records are one run of the rank-pages
 * job, applied and recorded as the deployed consumer records each batch Lambda delivers (recordedRankBatch),
 * with the records skipped as unreadable (the run then fails, recorded, and the reader goes on past the batch:
 * read again, they would be skipped again). A poll that found no score record is not a run: deployed, Lambda is
 * not invoked for nothing.
 */
export const recordedScoreBatches =
  (deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>) =>
  async (changes: ItemChange[], unreadable: number): Promise<void> => {
    if (changes.length === 0 && unreadable === 0) return;
    try {
      await recordedRankBatch(deps, changes, { unreadable });
    } catch (error) {
      if (!(error instanceof RecordsSkipped)) throw error;
    }
  };

/**
 * The local server's loop: the table's stream read every `intervalMs` (a second by default), its batches
 * recorded. A pass that fails is logged and retried with a growing pause (repeatEvery); one that failed reading
 * the stream is recorded here too, so that the stage overview shows a loop that cannot read, not only a batch
 * that failed.
 */
export function startScoreStreamLoop(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, connection: DynamoConnection, intervalMs: number): Loop {
  const reader = new ScoreStreamReader(deps, connection, recordedScoreBatches(deps));
  return repeatEvery(intervalMs, 'rank pages', async () => {
    const startedAt = deps.now();
    try {
      await reader.drain();
    } catch (error) {
      if (error instanceof StreamReadFailed) await recordFailedRun(deps, 'rank-pages', startedAt, error);
      throw error;
    }
  });
}
