import { scoreRecordsFilter } from '../core/rankings/stream-filter.js';
import { functionArgs } from './functions.js';
import { jobFailures } from './jobs.js';
import { table } from './table.js';

/**
 * The rank pages' consumer (functions/rank-pages.ts) subscribed to the table's stream (infra/table.ts), built
 * and linked like the other functions (functions/deployed.ts `functionNeeds`: the table only). Lambda reads the
 * stream and invokes it with batches of records; the settings, and why:
 *
 * - Filter: only records whose partition key starts with SCORE_PREFIX (score items) reach the function
 *   (core/rankings/stream-filter.ts, the rule the local server's stream reader applies too). Lambda
 *   filters before invoking, so the table's other writes cost no invocation, and the consumer's own writes
 *   (`RANKS#…` directories and pages) never come back to it as input. The filter is on `Keys`, which every
 *   record has (insert, modify and remove alike). The consumer skips other records itself too
 *   (core/rankings/rank-stream.ts): the filter saves cost, it is not what keeps the pages right.
 * - Starting position TRIM_HORIZON: the mapping starts from the oldest record the stream holds, so the changes
 *   written between the stream's creation and the mapping's (the same deploy) are applied too. Replaying is
 *   safe: applying is idempotent and skips older changes (locators, core/rankings/rank-pages.ts). Scores
 *   reported before the stream existed reach the pages only with each player's next report.
 * - Batches of up to 1,000 records (DynamoDB Streams' most), gathered for up to 1 s: fewer, larger batches. A
 *   player's reports within a batch collapse into one change, and a board's directory and pages are rewritten
 *   once per transaction of up to 16 players (core/rankings/rank-pages.ts) instead of once per report. The
 *   second of gathering is most of the pages' delay behind the reports (docs/performance.md).
 * - A batch that fails is split in halves and each half retried (bisect), so one change that cannot be applied
 *   holds up as few others as possible. Retrying is safe: applying is idempotent.
 * - At most 10 retries. Lambda's default retries until the records leave the stream (24 hours), and a shard
 *   makes no progress meanwhile: every later score change in it would wait. Past the retries the batch is
 *   dropped and its description (shard and sequence numbers, not the records) goes to the on-failure
 *   destination, the jobs' dead-letter queue (infra/jobs.ts), whose alarm fires on its first message
 *   (infra/alarms.ts). The dropped changes are missing from the pages (docs/reliability.md "Production
 *   infrastructure" says what that leaves).
 * - The function's role may send to the queue (Lambda sends the record with it).
 * - Timeout 60 s instead of SST's 20 s: a batch's changes of one board are applied 16 players a transaction,
 *   one transaction after another; on DynamoDB Local the bench applies 200-400 changes a second to one board
 *   (docs/performance.md), so a batch of 1,000 changes of one board takes a few seconds. A batch that times
 *   out fails and is retried like any other.
 */
export const rankPages = table.subscribe(
  'RankPages',
  {
    ...functionArgs('rank-pages'),
    timeout: '60 seconds',
    permissions: [{ actions: ['sqs:SendMessage'], resources: [jobFailures.arn] }],
  },
  {
    filters: [scoreRecordsFilter],
    transform: {
      eventSourceMapping: {
        startingPosition: 'TRIM_HORIZON',
        batchSize: 1_000,
        maximumBatchingWindowInSeconds: 1,
        bisectBatchOnFunctionError: true,
        maximumRetryAttempts: 10,
        destinationConfig: { onFailure: { destinationArn: jobFailures.arn } },
      },
    },
  },
);
