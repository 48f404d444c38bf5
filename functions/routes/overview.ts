import { adminOnly } from '../../core/http/auth.js';
import type { OperationSpec } from '../../core/http/operation.js';
import { OverviewQuery, StageOverview } from '../../core/platform/stage-overview.js';
import { SponsoredDay, SponsoredDayQuery } from '../../core/sponsorship/overview.js';
import { merchantToken } from './errors.js';

/**
 * The stage overview (docs/api.md, "The stage overview"), an operation of the admin console's group
 * (functions/admin-console.ts).
 */
export const adminOverviewOps = {
  stage_overview: {
    name: 'stage_overview',
    method: 'GET',
    path: '/merchant/admin/overview',
    tag: 'platform',
    auth: adminOnly("the stage's money figures and its scheduled jobs are the platform's, not a merchant's"),
    summary: "The stage's money figures per day and its scheduled jobs' last runs (admin; extra operation)",
    description:
      'For each UTC day of the last `days` (1-31, default 14; oldest first, today last): recharge orders created, orders paid (orderComplete, ' +
      'App Store and Google Play purchases, a stranded payment credited to its pending order), tickets credited by those paid orders and tickets ' +
      'spent by minus_tickets. The figures are about, not exact: each is counted after its operation succeeded, and a count lost in between is not ' +
      'made up (docs/performance.md "Items many requests write" lists what is counted). ' +
      "For each scheduled job (`indexer`, `settlement`, `deletions`, `rank-pages`, the boards' live heads' stream consumer, one run per batch, and " +
      "`rank-snapshots`, the boards' snapshots): its last " +
      "run (start, end, outcome `ok` or `failed`, on failure a code and summary, what it did in `did`, the indexer's `checkpoint`, the Lambda " +
      'request id its log lines carry), when it last succeeded, and its failed runs of those days, newest first (at most 50; kept 30 days). ' +
      '`last_run` is null for a job that never recorded a run.',
    query: OverviewQuery,
    status: 200,
    envelope: 'merchant',
    response: StageOverview,
    errors: { 400: 'days is not an integer from 1 to 31', ...merchantToken, 403: 'not an admin account' },
  },
  sponsored_day: {
    name: 'sponsored day',
    method: 'GET',
    path: '/merchant/admin/sponsorship',
    tag: 'sponsored claims',
    auth: adminOnly("the stage's gas sponsor is the platform's, not a merchant's"),
    summary: "Each game's sponsored claims and their gas of one day (admin; extra operation)",
    description:
      "For the UTC `day` (yyyy-mm-dd, default today): each game whose players had claims sponsored, how many, the gas budgets signed for them (`gas`, the most they can cost the stage's sponsor) and what the claims seen paid on chain so far cost it (`gas_spent`); most gas first. Days are kept 35 days.",
    query: SponsoredDayQuery,
    status: 200,
    envelope: 'merchant',
    response: SponsoredDay,
    errors: { 400: 'day is not a date as yyyy-mm-dd', ...merchantToken, 403: 'not an admin account' },
  },
} as const satisfies Record<string, OperationSpec>;
