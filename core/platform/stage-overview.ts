import * as z from 'zod/mini';
import { readItems } from './batch.js';
import { dayStatsKeys, figuresOfDays, utcDay } from './day-stats.js';
import type { PlatformDeps } from './deps.js';
import { JOBS, JobFailure, JobRun, failuresSince, jobRunKey, lastRunOf } from './job-runs.js';
import { intParam } from '../shared/fields.js';

/**
 * The stage overview an admin console shows (`GET /merchant/admin/overview`, docs/api.md "The stage overview"):
 * the money figures of the last days (core/platform/day-stats.ts) and the scheduled jobs' last runs and failed
 * runs (core/platform/job-runs.ts). It sits in core/platform because it reads only what platform code writes:
 * the day counts (written by tickets and payments, so below both) and the job runs (written by the jobs).
 */

export const MAX_OVERVIEW_DAYS = 31;
export const DEFAULT_OVERVIEW_DAYS = 14;

export const OverviewQuery = z.lazy(() => z.object({ days: z._default(intParam({ min: 1, max: MAX_OVERVIEW_DAYS }), DEFAULT_OVERVIEW_DAYS) }));

/** One UTC day's figures (core/platform/day-stats.ts DAY_FIGURES): integers, about (a count can be lost). */
const DayFigures = z.object({ day: z.string(), orders_created: z.int(), orders_paid: z.int(), tickets_credited: z.int(), tickets_spent: z.int() });

export const StageOverview = z.lazy(() =>
  z.object({
    days: z.array(DayFigures),
    jobs: z.array(
      z.object({
        job: z.enum(JOBS),
        last_run: z.nullable(JobRun),
        last_success_at: z.nullable(z.string()),
        failures: z.array(JobFailure),
      }),
    ),
    generated_at: z.string(),
  }),
);
export type StageOverview = z.infer<typeof StageOverview>;

/** The UTC days of the last `count` days, oldest first, today last. */
function lastDays(now: Date, count: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, i) => utcDay(new Date(today - (count - 1 - i) * 86_400_000)));
}

/**
 * The overview of the last `days` UTC days: one batch read of the days' figure shards and the jobs' last runs
 * (days × 16 + 4 keys, 100 a request), and one Query of each job's failed runs since the first day began, in
 * parallel.
 */
export async function stageOverview(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, query: { days: number }): Promise<StageOverview> {
  const now = deps.now();
  const days = lastDays(now, query.days);
  const since = `${days[0]}T00:00:00.000Z`;
  const statsKeys = dayStatsKeys(days);
  const [items, failures] = await Promise.all([
    readItems(deps, [...statsKeys, ...JOBS.map(jobRunKey)], { consistent: false }),
    Promise.all(JOBS.map((job) => failuresSince(deps, job, since))),
  ]);
  const figures = figuresOfDays(days, items.slice(0, statsKeys.length));
  return {
    days: days.map((day, i) => ({ day, ...figures[i]! })),
    jobs: JOBS.map((job, j) => ({ job, ...lastRunOf(items[statsKeys.length + j]), failures: failures[j]! })),
    generated_at: now.toISOString(),
  };
}
