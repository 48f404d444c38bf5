import type { PlatformDeps } from '../platform/deps.js';
import { JobFailed, recordedRun } from '../platform/job-runs.js';
import { type ItemChange, itemChangeOf } from '../platform/stream-records.js';
import { type Board, SCORE_PREFIX } from './keys.js';
import { applyHeadChanges, type StandingChange } from './rank-head.js';
import type { RankBoard } from './rank-pages.js';
import { toScoreItem } from './items.js';
import { standingOf } from './season-scores.js';
import { parseSeasonRange, type SeasonTypeValue, seasonKey } from './seasons.js';

export type { ItemChange };

/**
 * The consumer of the table's stream that keeps each board's live head (rank-head.ts): a score item's change
 * (its images before and after, as DynamoDB Streams gives them with NEW_AND_OLD_IMAGES) becomes a standing
 * change on each board it moved on. Deployed, a Lambda subscribed to the stream (filtered to score items) gets batches;
 * locally, the local server reads DynamoDB Local's stream in a loop. Records of other items are skipped.
 */

/**
 * A score item's record read as the consumer reads it: its images decoded (itemChangeOf) and each read as a score
 * item (toScoreItem). Throws what cannot be read, before anything is applied, so that a reader can skip that one
 * record (the local server's, tools/local/score-stream.ts) instead of failing its batch.
 */
export function readScoreRecord(record: { OldImage?: unknown; NewImage?: unknown }): ItemChange {
  const change = itemChangeOf(record);
  for (const image of [change.before, change.after]) if (image) toScoreItem(image);
  return change;
}

const isScore = (image: Record<string, unknown> | undefined) => typeof image?.pk === 'string' && image.pk.startsWith(SCORE_PREFIX);

/** A record of a score item: what the deployed subscription's filter lets through (infra/rank-pages.ts). */
export const isScoreChange = (record: ItemChange) => isScore(record.after ?? record.before);

/** The standing changes of a batch of records, by board (in the records' order within each board). */
export function standingChanges(records: readonly ItemChange[]): Map<string, { ref: RankBoard; changes: StandingChange[] }> {
  const boards = new Map<string, { ref: RankBoard; changes: StandingChange[] }>();
  for (const record of records) {
    if (!isScoreChange(record)) continue;
    const before = record.before && toScoreItem(record.before);
    const after = record.after && toScoreItem(record.after);
    const item = (after ?? before)!;
    const season = parseSeasonRange(item.season_type as SeasonTypeValue, item.season_range);
    if (!season) continue;
    for (const board of ['kills', 'wins'] as Board[]) {
      const was = before && standingOf(board, before);
      const is = after && standingOf(board, after);
      // A report that moved only the other board (or only the wallet) leaves this one as it was.
      if (was && is && was.score === is.score && was.at === is.at && before!.game_player_name === after!.game_player_name) continue;
      if (!(was && was.score > 0) && !(is && is.score > 0)) continue;
      const change: StandingChange = {
        id: item.game_player_id,
        ...(was && was.score > 0 ? { before: was } : {}),
        ...(is && is.score > 0 ? { after: { ...is, name: after!.game_player_name } } : {}),
      };
      const key = `${board}\u0000${item.game_code}\u0000${seasonKey(season)}`;
      const known = boards.get(key) ?? { ref: { board, game: item.game_code, season }, changes: [] };
      known.changes.push(change);
      boards.set(key, known);
    }
  }
  return boards;
}

/** Applies a batch of the stream's records to the boards' heads, each board by itself, boards in parallel. */
export async function applyItemChanges(deps: Pick<PlatformDeps, 'db' | 'table' | 'now' | 'rankHeadSize'>, records: readonly ItemChange[]): Promise<number> {
  const boards = [...standingChanges(records).values()];
  await Promise.all(boards.map(({ ref, changes }) => applyHeadChanges(deps, ref, changes)));
  return boards.length;
}

/**
 * A run that applied its batch's readable records but skipped `unreadable` others (the deployed consumer and the
 * local server's reader skip them: functions/jobs/rank-pages.ts, tools/local/score-stream.ts): it is recorded as
 * failed, so the stage overview shows the lost changes, though nothing is left to retry; the next snapshot
 * has them (rank-snapshots.ts).
 */
export class RecordsSkipped extends JobFailed {
  constructor(unreadable: number) {
    super(
      'rank-pages.records_unreadable',
      `rank pages: ${unreadable} stream record${unreadable === 1 ? ' could not be read and was' : 's could not be read and were'} skipped (logged); ` +
        "their changes are missing from the boards' heads until each player's next report (the next snapshot has them)",
    );
    this.name = 'RecordsSkipped';
  }
}

/**
 * A batch of the stream's records applied as one run of the `rank-pages` job (core/platform/job-runs.ts), the
 * same wherever it runs: the deployed consumer (functions/jobs/rank-pages.ts) and the local server's stream loop
 * (tools/local/score-stream.ts). Recorded: its records and the boards it changed, and the records of the
 * batch its reader could not read (`unreadable`, skipped: the run then fails with RecordsSkipped, after the
 * others were applied). Answers the boards.
 */
export function recordedRankBatch(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'now' | 'rankHeadSize'>,
  records: readonly ItemChange[],
  options: { unreadable?: number } = {},
): Promise<number> {
  const unreadable = options.unreadable ?? 0;
  const skipped: Record<string, number> = unreadable > 0 ? { unreadable } : {};
  return recordedRun(deps, 'rank-pages', async (note) => {
    note({ did: { records: records.length, ...skipped } });
    const boards = await applyItemChanges(deps, records);
    note({ did: { records: records.length, boards, ...skipped } });
    if (unreadable > 0) throw new RecordsSkipped(unreadable);
    return boards;
  });
}
