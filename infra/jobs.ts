import { functionArgs } from './functions.js';

/**
 * Scheduled jobs (EventBridge Scheduler through SST's CronV2).
 *
 * The chain indexer (functions/indexer.ts) runs every minute, the shortest schedule there is. A run stops
 * itself 15 s before its timeout; a run that still overlaps the next one is safe (the indexer's cursor is
 * saved with a version check and every event is stored once). No retries: the next minute's run is the retry,
 * and it starts from the saved cursor.
 */
export const indexer = new sst.aws.CronV2('Indexer', {
  schedule: 'rate(1 minute)',
  function: { ...functionArgs('functions/indexer.handler'), timeout: '60 seconds' },
  retries: 0,
});
