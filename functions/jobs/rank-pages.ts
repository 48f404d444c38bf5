import { placeNewPlayers } from '../../core/leagues/placement.js';
import { withRequestContext } from '../../core/platform/request-context.js';
import { RecordsSkipped, recordedRankBatch, standingChanges } from '../../core/rankings/rank-stream.js';
import { logSkippedRecord, readScoreRecords } from '../../core/rankings/stream-filter.js';
import type { StreamEvent } from '../../core/platform/stream-records.js';
import { deployedDeps } from '../deployed.js';

/**
 * The live heads' Lambda (infra/rank-pages.ts subscribes it to the table's stream, score items only): each batch
 * of the stream's records is applied to the heads of the boards it moves (core/rankings/rank-stream.ts). Lambda
 * retries a batch that fails (split in halves) until it succeeds, which is safe because a change takes the player
 * from the page of their standing before and after it before putting them in once: applied twice, it changes
 * nothing (core/rankings/rank-head.ts). A record that cannot be read (an image that is not a score item) would
 * fail its batch at every retry: it is skipped instead, logged, and the batch's run recorded as failed
 * (`rank-pages.records_unreadable`), as the local server's reader does (tools/local/score-stream.ts), so the
 * shard goes on. Every batch is a run recorded for the stage overview (recordedRankBatch): its records and boards.
 * The same batch places the players whose first score of a league's season it holds (core/leagues/placement.ts):
 * one consumer of the stream for both, since a stream's shard takes two readers at most.
 */

/** The part of the Lambda context this handler reads. */
interface LambdaContext {
  /** The invocation's id, on each of its log lines (core/platform/request-context.ts). */
  awsRequestId?: string;
}

/** The parts of Deps this job's needs name (functions/deployed.ts). */
const loadDeps = deployedDeps('rank-pages', {
  table: () => import('../../core/platform/db.js'),
});

export function handler(event: StreamEvent, context: LambdaContext): Promise<{ boards: number; placed: number; unreadable?: number }> {
  return withRequestContext({ requestId: context.awsRequestId }, async () => {
    const deps = await loadDeps();
    const { changes, unreadable } = await readScoreRecords(
      event.Records.map((record) => record.dynamodb ?? {}),
      logSkippedRecord,
    );
    // The league's new players are placed first: a failure retries the batch, and the heads apply it again harmlessly.
    const placed = await placeNewPlayers(deps, changes);
    try {
      return { boards: await recordedRankBatch(deps, changes, { unreadable }), placed };
    } catch (error) {
      // The readable records are applied and the run recorded as failed: nothing is left to retry.
      if (!(error instanceof RecordsSkipped)) throw error;
      return { boards: standingChanges(changes).size, placed, unreadable };
    }
  });
}
