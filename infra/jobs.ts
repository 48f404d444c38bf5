import { functionArgs } from './functions.js';

/**
 * Scheduled jobs (EventBridge Scheduler through SST's CronV2), linked like the group functions to what their
 * code reads (functions/deployed.ts `functionNeeds`): the indexer to the table and ChainConfig, settlement to the
 * table.
 *
 * The chain indexer (functions/indexer.ts) runs every minute, the shortest schedule there is. A run stops
 * itself 15 s before its timeout; a run that still overlaps the next one is safe (the indexer's cursor is
 * saved with a version check and every event is stored once). No retries: the next minute's run is the retry,
 * and it starts from the saved cursor.
 */
export const indexer = new sst.aws.CronV2('Indexer', {
  schedule: 'rate(1 minute)',
  function: { ...functionArgs('indexer'), timeout: '60 seconds' },
  retries: 0,
});

/**
 * Settlement (functions/settlement.ts) every 10 minutes: closes every season that has ended into history
 * entries. Concurrent or repeated runs settle each season once; no scheduler retries (the next run is the retry).
 */
export const settlement = new sst.aws.CronV2('Settlement', {
  schedule: 'rate(10 minutes)',
  function: { ...functionArgs('settlement'), timeout: '5 minutes' },
  retries: 0,
});
