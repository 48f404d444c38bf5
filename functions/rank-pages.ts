import { withRequestContext } from '../core/platform/request-context.js';
import { itemChangeOf, recordedRankBatch } from '../core/rankings/rank-stream.js';
import { deployedDeps } from './deployed.js';

/**
 * The rank pages' Lambda (infra/rank-pages.ts subscribes it to the table's stream, score items only): each batch
 * of the stream's records is applied to the rank pages (core/rankings/rank-stream.ts). A failure throws: Lambda
 * retries the batch (split in halves), which is safe because applying is idempotent (core/rankings/rank-pages.ts).
 * Every batch is a run recorded for the stage overview (recordedRankBatch): its records and boards.
 */

/** The part of a DynamoDB Streams event this handler reads: each record's images, in DynamoDB's wire form. */
interface StreamEvent {
  Records: { dynamodb?: { OldImage?: unknown; NewImage?: unknown } }[];
}

/** The part of the Lambda context this handler reads. */
interface LambdaContext {
  /** The invocation's id, on each of its log lines (core/platform/request-context.ts). */
  awsRequestId?: string;
}

/** The parts of Deps this job's needs name (functions/deployed.ts). */
const loadDeps = deployedDeps('rank-pages', {
  table: () => import('../core/platform/db.js'),
});

export function handler(event: StreamEvent, context: LambdaContext): Promise<{ boards: number }> {
  return withRequestContext({ requestId: context.awsRequestId }, async () => {
    const deps = await loadDeps();
    const boards = await recordedRankBatch(
      deps,
      event.Records.map((record) => itemChangeOf(record.dynamodb ?? {})),
    );
    return { boards };
  });
}
