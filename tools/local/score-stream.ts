import type { _Record as StreamRecord } from '@aws-sdk/client-dynamodb-streams';
import { placeNewPlayers } from '../../core/leagues/placement.js';
import type { PlatformDeps } from '../../core/platform/deps.js';
import { recordFailedRun } from '../../core/platform/job-runs.js';
import { repeatEvery, type Loop } from '../../core/platform/loop.js';
import { applyItemChanges, type ItemChange, RecordsSkipped, recordedRankBatch } from '../../core/rankings/rank-stream.js';
import { logSkippedRecord, readScoreRecords, type StreamImages } from '../../core/rankings/stream-filter.js';
import type { DynamoConnection } from './dynamo.js';
import { StreamReadFailed, TableStreamReader } from './table-stream.js';

export { StreamReadFailed };

/**
 * The local stand-in for the deployed stream subscription of the boards' live heads (infra/rank-pages.ts): keeps
 * the records the deployed filter lets through (score items', core/rankings/stream-filter.ts: judged on their keys,
 * so no other item's images are decoded) and hands each GetRecords batch's to a consumer: the loop's records it as
 * the deployed function does (startScoreStreamLoop); by default (a test's drain) it is applied unrecorded.
 * Applying is idempotent (core/rankings/rank-head.ts), so starting again from the oldest record after a
 * restart changes nothing.
 *
 * A score record that cannot be read (an image GetRecords gives in a form that does not decode, or that is not a
 * score item) is skipped: logged once, counted for the consumer as `unreadable`, and the rest of its batch is
 * given, as the deployed consumer does (functions/jobs/rank-pages.ts): no record may hold up the records behind it,
 * nor the loop.
 */
export class ScoreStreamReader extends TableStreamReader {
  /** The sequence numbers of the records skipped and logged: a batch read again (its consumer failed) logs them no more. */
  private readonly skipped = new Set<string>();

  constructor(
    deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>,
    connection: DynamoConnection,
    /** What is done with each batch's score records: the boards' head consumer, unless a test collects them. */
    private readonly consume: (changes: ItemChange[], unreadable: number) => Promise<unknown> = (changes) => applyItemChanges(deps, changes),
  ) {
    super(deps.table, connection);
  }

  protected async consumeBatch(records: StreamRecord[]): Promise<void> {
    const { changes, unreadable } = await this.scoreChanges(records);
    if (changes.length > 0 || unreadable > 0) await this.consume(changes, unreadable);
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
}

/**
 * What the local server's loop does with each GetRecords batch: its score records place the leagues' new players
 * and are one run of the rank-pages job, applied and recorded as the deployed consumer records each batch Lambda delivers (recordedRankBatch),
 * with the records skipped as unreadable (the run then fails, recorded, and the reader goes on past the batch:
 * read again, they would be skipped again). A poll that found no score record is not a run: deployed, Lambda is
 * not invoked for nothing.
 */
export const recordedScoreBatches =
  (deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>) =>
  async (changes: ItemChange[], unreadable: number): Promise<void> => {
    if (changes.length === 0 && unreadable === 0) return;
    // As the deployed consumer: the league's new players first (core/leagues/placement.ts), then the heads.
    await placeNewPlayers(deps, changes);
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
