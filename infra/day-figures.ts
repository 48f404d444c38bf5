import { moneyRecordsFilters } from '../core/payments/day-figures.js';
import { functionArgs } from './functions.js';
import { jobFailures } from './jobs.js';
import { table } from './table.js';

/**
 * The consumer that counts the stage overview's day figures (functions/jobs/day-figures.ts, core/payments/day-figures.ts),
 * subscribed to the table's stream (infra/table.ts) beside the boards' live heads (infra/rank-pages.ts): each
 * subscription reads the stream on its own, so one falling behind or failing holds up nothing of the other.
 * Built and linked like the other functions (functions/deployed.ts `functionNeeds`: the table only). Settings, and why:
 *
 * - Filters: pay orders' records (any change: made, paid), ledger entries' inserts and ticket balances' inserts and
 *   changes (the ledger entries a balance holds); nothing else reaches the function (moneyRecordsFilters, the rule
 *   the local server's reader applies too).
 * - Starting position TRIM_HORIZON, batches of up to 1,000 gathered for up to 5 seconds: the figures are a day's,
 *   so a few seconds late costs nothing and bigger batches make fewer writes (one per day a batch touches).
 * - A failing batch is retried up to 10 times, whole (no halving: the counting reads no record it could choke on;
 *   a failure is the table's). A retry may count again what a write of the failed attempt had counted: the
 *   figures are about, not exact (core/platform/day-stats.ts). A batch still failing goes to the jobs' dead-letter
 *   queue, whose alarm fires (infra/alarms.ts).
 */
export const dayFigures = table.subscribe(
  'DayFigures',
  {
    ...functionArgs('day-figures'),
    permissions: [{ actions: ['sqs:SendMessage'], resources: [jobFailures.arn] }],
  },
  {
    filters: moneyRecordsFilters,
    transform: {
      eventSourceMapping: {
        startingPosition: 'TRIM_HORIZON',
        batchSize: 1_000,
        maximumBatchingWindowInSeconds: 5,
        maximumRetryAttempts: 10,
        destinationConfig: { onFailure: { destinationArn: jobFailures.arn } },
      },
    },
  },
);
