import { functionArgs } from './functions.js';

/**
 * Scheduled jobs (EventBridge Scheduler through SST's CronV2), linked like the group functions to what their
 * code reads (functions/deployed.ts `functionNeeds`): the indexer to the table and ChainConfig, settlement,
 * deletions and the rank snapshots to the table.
 *
 * The chain indexer (functions/jobs/indexer.ts) runs every minute, the shortest schedule there is. A run stops
 * itself 15 s before its timeout; a run that still overlaps the next one is safe (the indexer's cursor is
 * saved with a version check and every event is stored once). No retries: the next minute's run is the retry,
 * and it starts from the saved cursor.
 */

/**
 * The jobs' dead-letter queue: a record of every run that failed, kept 14 days (SQS's longest). Three ways in:
 * - a run that threw or timed out: the scheduler invokes the function asynchronously, and the function's
 *   asynchronous invocation settings send the failed event to this queue at once (`retries: 0`: Lambda would
 *   otherwise run it twice more, and the next scheduled run is the retry anyway), with the error in the record;
 * - an invocation the scheduler could not make (the function missing, its permission, Lambda refusing it):
 *   the schedule's own dead-letter queue, the same one;
 * - a batch of the table's stream the live heads' consumer gave up on (infra/rank-pages.ts): its subscription's
 *   on-failure destination, with the shard and sequence numbers of the dropped records. The subscription retries
 *   a failing batch until it succeeds, so only one still failing when its records leave the stream (24 hours).
 * Nothing reads the queue: infra/alarms.ts raises an alarm as soon as it holds a message, and an operator reads
 * the records (the error and the request id of the failed run: its log lines carry it) and purges it.
 */
export const jobFailures = new sst.aws.Queue('JobFailures', {
  transform: { queue: { messageRetentionSeconds: 14 * 24 * 60 * 60 } },
});

/** The function args every job shares: built like a group function, failed runs dead-lettered to jobFailures. */
const jobFunction = (name: 'indexer' | 'settlement' | 'deletions' | 'rank-snapshots', timeout: string) => ({
  ...functionArgs(name),
  timeout,
  retries: 0,
  // Lambda sends a failed asynchronous invocation to its on-failure destination with the function's own role.
  permissions: [{ actions: ['sqs:SendMessage'], resources: [jobFailures.arn] }],
  transform: { eventInvokeConfig: { destinationConfig: { onFailure: { destination: jobFailures.arn } } } },
});

export const indexer = new sst.aws.CronV2('Indexer', {
  schedule: 'rate(1 minute)',
  function: jobFunction('indexer', '60 seconds'),
  retries: 0,
  dlq: jobFailures.arn,
});

/**
 * Settlement (functions/jobs/settlement.ts) every 10 minutes: closes every season that has ended into history
 * entries. Concurrent or repeated runs settle each season once; no scheduler retries (the next run is the retry).
 */
export const settlement = new sst.aws.CronV2('Settlement', {
  schedule: 'rate(10 minutes)',
  function: jobFunction('settlement', '5 minutes'),
  retries: 0,
  dlq: jobFailures.arn,
});

/**
 * Deletions (functions/jobs/deletions.ts) every 10 minutes: finishes players' account deletions whose run stopped
 * halfway and whose request was not retried. One run at a time holds a deletion; no scheduler retries.
 */
export const deletions = new sst.aws.CronV2('Deletions', {
  schedule: 'rate(10 minutes)',
  function: jobFunction('deletions', '5 minutes'),
  retries: 0,
  dlq: jobFailures.arn,
});

/**
 * The rank snapshots (functions/jobs/rank-snapshots.ts) every minute: each open season's two boards written whole from
 * its score items (core/rankings/rank-snapshots.ts), what ranks the players below each board's live head. Timeout
 * 5 minutes: a season of 1,000,000 players is read and written in well under a minute deployed, and a run that
 * still overlaps the next one is safe (each board's snapshot is written by one of them, the other's pages
 * deleted). No scheduler retries: the next minute's run is the retry, and takes every board again.
 */
export const rankSnapshots = new sst.aws.CronV2('RankSnapshots', {
  schedule: 'rate(1 minute)',
  function: jobFunction('rank-snapshots', '5 minutes'),
  retries: 0,
  dlq: jobFailures.arn,
});
