import { type ItemKey, writeItems } from '../platform/batch.js';
import type { PlatformDeps } from '../platform/deps.js';
import { recordedRun } from '../platform/job-runs.js';
import { queryItems } from '../platform/query.js';
import { type Board, OPEN_SEASONS } from './keys.js';
import { StoredOpenSeason } from './open-seasons.js';
import { healHead } from './rank-head.js';
import { SNAPSHOT_GRACE_MS, writeSnapshot } from './rank-snapshot.js';
import { boardStandings, readSeasonScores } from './season-scores.js';
import { parseSeasonRange, type SeasonTypeValue } from './seasons.js';

/**
 * The snapshot job (docs/performance.md "Ranks at a studio's budget"): every minute (deployed, a scheduled
 * Lambda; locally a loop of `npm start`), each season with scores that has not ended, or ended less than
 * AFTER_END_MS ago, is read whole (season-scores.ts) and its two boards written as snapshots (rank-snapshot.ts),
 * each unless its changes since the last one are too few for what it would cost (SNAPSHOT_UNITS_PER_CHANGE).
 * Its pages no longer named are deleted once every snapshot of the run is written and SNAPSHOT_GRACE_MS passed.
 * The same read puts right what the stream left wrong in each board's head (rank-head.ts healHead).
 * Runs overlapping each other are safe: a board's snapshot is written by one of them, the other's pages deleted.
 */
export const SNAPSHOT_INTERVAL_MS = 60_000;
/** A season that ended this long ago gets no more snapshots: its last reports are in one by then. */
const AFTER_END_MS = 10 * 60_000;
const BOARDS: Board[] = ['kills', 'wins'];

export interface SnapshotRun {
  seasons: number;
  boards: number;
  pages_written: number;
  pages_kept: number;
  pages_deleted: number;
  /** Boards whose snapshot would have cost more than its changes' budget: left for a later run. */
  boards_deferred: number;
  /** Head standings taken out: a player's second entry, or a deleted player's entry or cutoff (rank-head.ts healHead). */
  head_entries_healed: number;
}

/** How a run goes: `graceMs`, how long retired pages stay (a test's shorter); `everyBoard`, no board deferred. */
interface RunOptions {
  graceMs?: number;
  everyBoard?: boolean;
}

/** One run over every season that takes snapshots. */
export async function snapshotSeasons(deps: Pick<PlatformDeps, 'db' | 'table' | 'now' | 'rankHeadSize'>, options: RunOptions = {}): Promise<SnapshotRun> {
  const from = new Date(deps.now().getTime() - AFTER_END_MS).toISOString();
  const open = await queryItems(deps, {
    KeyConditionExpression: 'pk = :pk AND sk > :from',
    ExpressionAttributeValues: { ':pk': OPEN_SEASONS, ':from': from },
  });
  const run: SnapshotRun = { seasons: 0, boards: 0, pages_written: 0, pages_kept: 0, pages_deleted: 0, boards_deferred: 0, head_entries_healed: 0 };
  const retired: ItemKey[] = [];
  // One season at a time: a large season's items are the run's memory.
  for (const item of open) {
    const { game_code: game, season_type, season_range } = StoredOpenSeason.parse(item);
    const season = parseSeasonRange(season_type as SeasonTypeValue, season_range);
    if (!season) continue;
    const asOf = deps.now().toISOString();
    // An ended season's last snapshots are never deferred: they are what its players are ranked by from then on.
    const ended = season.end.getTime() <= deps.now().getTime();
    const scores = await readSeasonScores(deps, game, season);
    run.seasons++;
    for (const board of BOARDS) {
      const reachedAt = (item: (typeof scores)[number]) => (board === 'kills' ? item.killsAt : item.winsAt) ?? '';
      const changedSince = (instant: string) => scores.filter((item) => reachedAt(item) > instant).length;
      const standings = boardStandings(board, scores);
      const written = await writeSnapshot(deps, { board, game, season }, standings, asOf, options.everyBoard || ended ? undefined : changedSince);
      run.boards++;
      if (written.deferred) run.boards_deferred++;
      run.head_entries_healed += await healHead(deps, { board, game, season }, new Set(standings.map((entry) => entry.id)), asOf);
      run.pages_written += written.written;
      run.pages_kept += written.kept;
      retired.push(...written.retired);
    }
  }
  if (retired.length > 0) {
    await new Promise((resolve) => setTimeout(resolve, options.graceMs ?? SNAPSHOT_GRACE_MS));
    await writeItems(deps, [], retired);
    run.pages_deleted = retired.length;
  }
  return run;
}

/** A run of the `rank-snapshots` job (core/platform/job-runs.ts), recorded for the stage overview. */
export function recordedSnapshotRun(deps: Pick<PlatformDeps, 'db' | 'table' | 'now' | 'rankHeadSize'>, options: RunOptions = {}): Promise<SnapshotRun> {
  return recordedRun(deps, 'rank-snapshots', async (note) => {
    const run = await snapshotSeasons(deps, options);
    note({ did: { ...run } });
    return run;
  });
}
