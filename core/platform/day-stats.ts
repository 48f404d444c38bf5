import { randomInt } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { PlatformDeps } from './deps.js';

/**
 * The stage's money figures per UTC day (the admins' stage overview, core/platform/stage-overview.ts): recharge
 * orders created, orders paid, tickets credited by paid orders, tickets spent by deductions. docs/performance.md
 * "Items many requests write" and "Money at the write floor" have the decisions; in short:
 *
 * - They are counted from the table's stream (core/payments/day-figures.ts), never on a request's path: a count
 *   made by the request would cost each money operation a round trip and a write unit, about a fifth of a
 *   deduction's cost. A batch of the stream's records makes one UpdateItem per day it touches.
 * - The figures of a day are spread over STATS_SHARDS items, each its own partition (access pattern "a day's
 *   figures, shard s": pk `STATS#<day>#<s>`, sk `STATS`), s picked at random per count: 16 shards take about
 *   16,000 batches a second, far more than the stream's consumers give.
 * - So the figures are about, not exact: a batch retried after its count was written (the consumer failed
 *   later) counts twice, and one given up on counts nothing (logged, in the jobs' failure queue when deployed).
 * - Read with one batch read of days × 16 keys (BatchGetItem, 100 keys a request) and summed.
 */

/** The figures a day counts. */
export const DAY_FIGURES = ['orders_created', 'orders_paid', 'tickets_credited', 'tickets_spent'] as const;
export type DayFigure = (typeof DAY_FIGURES)[number];
export type DayCounts = Record<DayFigure, number>;

/** Items a day's figures are spread over. */
export const STATS_SHARDS = 16;

/** How long a day's items are kept (TTL): past the 31 days the overview reads, a year for whoever reads the table. */
const KEEP_SECONDS = 400 * 24 * 60 * 60;

/** The UTC day of an instant, `YYYY-MM-DD`. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** The partition prefix and the sort key of every day's shard item. */
export const DAY_STATS_PREFIX = 'STATS#';
export const DAY_STATS_SORT_KEY = 'STATS';
/** "a day's figures, shard s". */
export const dayStatsKey = (day: string, shard: number) => ({ pk: `${DAY_STATS_PREFIX}${day}#${shard}`, sk: DAY_STATS_SORT_KEY });

/** A shard item as stored: a figure no count has reached yet is absent. */
export const StoredDayStats = z.object({
  orders_created: z._default(z.int(), 0),
  orders_paid: z._default(z.int(), 0),
  tickets_credited: z._default(z.int(), 0),
  tickets_spent: z._default(z.int(), 0),
});

/**
 * Adds `counts` to the figures of `day` (UTC, `YYYY-MM-DD`), on a random shard: one UpdateItem. Amounts are
 * integers (tickets); a figure of 0 is left out. Throws what the table throws, so that the batch is retried.
 */
export async function addToDay(deps: Pick<PlatformDeps, 'db' | 'table'>, day: string, counts: Partial<DayCounts>): Promise<void> {
  const figures = DAY_FIGURES.filter((figure) => (counts[figure] ?? 0) !== 0);
  if (figures.length === 0) return;
  if (!figures.every((figure) => Number.isSafeInteger(counts[figure]))) throw new Error(`day figures of ${day}: a figure is not an integer`);
  await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: dayStatsKey(day, randomInt(STATS_SHARDS)),
      UpdateExpression: `SET #type = :type, #day = :day, expiresAt = :expires ADD ${figures.map((figure) => `${figure} :${figure}`).join(', ')}`,
      ExpressionAttributeNames: { '#type': 'type', '#day': 'day' },
      ExpressionAttributeValues: {
        ':type': 'day_stats',
        ':day': day,
        ':expires': Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + KEEP_SECONDS,
        ...Object.fromEntries(figures.map((figure) => [`:${figure}`, counts[figure]])),
      },
    }),
  );
}

/** The keys of `days`' figures (UTC, `YYYY-MM-DD`): STATS_SHARDS a day, in the days' order; read them in one batch read. */
export const dayStatsKeys = (days: readonly string[]) => days.flatMap((day) => Array.from({ length: STATS_SHARDS }, (_, shard) => dayStatsKey(day, shard)));

/** Each day's figures, summed over its shards, from the items `dayStatsKeys(days)` read (in that order; undefined where none). */
export function figuresOfDays(days: readonly string[], items: readonly (Record<string, unknown> | undefined)[]): DayCounts[] {
  return days.map((_, d) => {
    const sum: DayCounts = { orders_created: 0, orders_paid: 0, tickets_credited: 0, tickets_spent: 0 };
    for (const item of items.slice(d * STATS_SHARDS, (d + 1) * STATS_SHARDS)) {
      if (!item) continue;
      const shard = StoredDayStats.parse(item);
      for (const figure of DAY_FIGURES) sum[figure] += shard[figure];
    }
    return sum;
  });
}
