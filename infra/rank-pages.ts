import { scoreRecordsFilter } from '../core/rankings/stream-filter.js';
import { functionArgs } from './functions.js';
import { jobFailures } from './jobs.js';
import { table } from './table.js';

/**
 * The consumer that keeps each board's live head (functions/jobs/rank-pages.ts, core/rankings/rank-head.ts), subscribed
 * to the table's stream (infra/table.ts), built and linked like the other functions (functions/deployed.ts
 * `functionNeeds`: the table only). Lambda reads the stream and invokes it with batches of records; the settings,
 * and why:
 *
 * - Filter: only records whose partition key starts with SCORE_PREFIX (score items) reach the function
 *   (core/rankings/stream-filter.ts, the rule the local server's stream reader applies too). Lambda
 *   filters before invoking, so the table's other writes cost no invocation, and the boards' own writes
 *   (`RANKS#…` heads and snapshots) never come back to it as input. The filter is on `Keys`, which every
 *   record has (insert, modify and remove alike). The consumer skips other records itself too: the filter
 *   saves cost, it is not what keeps the heads right.
 * - Starting position TRIM_HORIZON: the mapping starts from the oldest record the stream holds, so the changes
 *   written between the stream's creation and the mapping's (the same deploy) are applied too. Replaying is
 *   safe: a change takes the player from the page of their standing before and after it before putting them in
 *   once, so applying a batch twice changes nothing (core/rankings/rank-head.ts). Scores reported before the
 *   stream existed reach a head with each player's next report, and the snapshot at once (below).
 * - Batches of up to 1,000 records (DynamoDB Streams' most), gathered for up to 1 s: fewer, larger batches. A
 *   player's changes within a batch collapse into one, and a board's head is written once per batch, in one
 *   transaction (core/rankings/rank-head.ts), instead of once per report. The second of gathering is most of the
 *   heads' delay behind the reports (docs/performance.md).
 * - A batch that fails is split in halves and each half retried (bisect), so a failure holds up as few changes
 *   as it can while it lasts.
 * - Retried until it succeeds (`maximumRetryAttempts: -1`, Lambda's "no limit"). Each board's head is kept from
 *   each record's images before and after alone: a dropped batch would leave the head wrong (a player missing,
 *   or shown at a standing they left) until the player's next change. What fails for a while (throttling, a
 *   timeout, a lost race for a directory) is retried until it passes; the shard waits meanwhile, which the
 *   IteratorAge alarm shows (infra/alarms.ts). A record that can never be applied, one whose images cannot be
 *   read, does not fail its batch: the consumer skips it, logs it and records the batch's run as failed
 *   (`rank-pages.records_unreadable`, on the stage overview). The snapshot, rebuilt every minute from the score
 *   items themselves (infra/jobs.ts RankSnapshots), is not affected by the stream at all.
 * - On-failure destination: the jobs' dead-letter queue (infra/jobs.ts), whose alarm fires on its first message
 *   (infra/alarms.ts). With no retry limit, a batch reaches it only if it still fails when its records leave the
 *   stream (24 hours); its description (shard and sequence numbers, not the records) goes there. The function's
 *   role may send to the queue (Lambda sends the record with it).
 * - Timeout 60 s instead of SST's 20 s: a batch's changes of one board are written in one transaction (in halves
 *   past a transaction's size), after reading the head pages they touch; a batch that times out fails and is
 *   retried like any other.
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
        maximumRetryAttempts: -1,
        destinationConfig: { onFailure: { destinationArn: jobFailures.arn } },
      },
    },
  },
);
