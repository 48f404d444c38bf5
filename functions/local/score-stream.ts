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
import { repeatEvery, type Loop } from '../../core/platform/loop.js';
import { applyItemChanges, type ItemChange, isScoreChange, itemChangeOf, recordedRankBatch } from '../../core/rankings/rank-stream.js';
import type { DynamoConnection } from './dynamo.js';

/**
 * The local stand-in for the deployed stream subscription (infra/rank-pages.ts): reads the table's stream on
 * DynamoDB Local, every shard from its oldest record (its parents' before it, as Lambda does), and hands each
 * GetRecords batch to a consumer: the loop's records it as the deployed function does (startScoreStreamLoop);
 * by default (a test's drain) it is applied unrecorded. Applying is idempotent (core/rankings/rank-pages.ts), so
 * starting again from the oldest record after a restart changes nothing.
 */
export class ScoreStreamReader {
  private readonly streams: DynamoDBStreamsClient;
  private readonly tables: DynamoDBClient;
  private streamArn?: string;
  /** Each shard's next iterator; null once a closed shard is read to its end. */
  private readonly iterators = new Map<string, string | null>();
  private running: Promise<number> = Promise.resolve(0);

  constructor(
    private readonly deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>,
    connection: DynamoConnection,
    /** What is done with each batch of records: the rank pages' consumer, unless a test collects them. */
    private readonly consume: (changes: ItemChange[]) => Promise<unknown> = (changes) => applyItemChanges(deps, changes),
  ) {
    this.streams = new DynamoDBStreamsClient(connection);
    this.tables = new DynamoDBClient(connection);
  }

  /** Reads every shard until no record is left and applies them; answers how many records were read. */
  drain(): Promise<number> {
    // One pass at a time: a test's drain waits for the loop's pass in flight instead of racing it.
    const pass = this.running.catch(() => 0).then(() => this.pass());
    this.running = pass;
    return pass;
  }

  private async pass(): Promise<number> {
    let read = 0;
    for (const shard of await this.shardsInOrder()) {
      for (;;) {
        const iterator = this.iterators.get(shard.ShardId!);
        if (!iterator) break;
        const out = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
        const records = out.Records ?? [];
        if (records.length > 0) await this.consume(records.map(toItemChange));
        this.iterators.set(shard.ShardId!, out.NextShardIterator ?? null);
        read += records.length;
        if (records.length === 0) break;
      }
    }
    return read;
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

const toItemChange = (record: StreamRecord) => itemChangeOf(record.dynamodb ?? {});

/**
 * What the local server's loop does with each GetRecords batch: its score records are one run of the rank-pages
 * job, applied and recorded as the deployed consumer records each batch Lambda delivers (recordedRankBatch).
 * Only score records count, as only they pass the deployed subscription's filter (infra/rank-pages.ts); this
 * stream carries every write of the table. A poll that found no score record is not a run: deployed, Lambda is
 * not invoked for nothing, and were it recorded, its own record would come back to the next poll as a write,
 * and every poll would be a run.
 */
export const recordedScoreBatches =
  (deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>) =>
  async (changes: ItemChange[]): Promise<void> => {
    const scores = changes.filter(isScoreChange);
    if (scores.length > 0) await recordedRankBatch(deps, scores);
  };

/** The local server's loop: the table's stream read every `intervalMs` (a second by default), its batches recorded. */
export function startScoreStreamLoop(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, connection: DynamoConnection, intervalMs: number): Loop {
  const reader = new ScoreStreamReader(deps, connection, recordedScoreBatches(deps));
  return repeatEvery(intervalMs, 'rank pages', async () => {
    await reader.drain();
  });
}
