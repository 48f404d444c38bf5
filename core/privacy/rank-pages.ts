import type { Item } from '../platform/batch.js';
import type { PlatformDeps } from '../platform/deps.js';
import type { Board } from '../rankings/keys.js';
import { leaveBoards } from '../rankings/leave-boards.js';
import { parseSeasonRange, type SeasonTypeValue } from '../rankings/seasons.js';

/**
 * The boards' heads are kept from the table's stream and their snapshots from the score items (core/rankings):
 * deleting a player's score items takes them off both a moment later. The deletion does not wait for that: its
 * sweep takes the player off the head and the snapshot of each board of each season they had scores in.
 */
const BOARDS: Board[] = ['kills', 'wins'];

/** The seasons of the player's score items, as `<game>\u0000<type>\u0000<range>` (kept in the deletion's record). */
export const scoreSeasonsOf = (items: readonly Item[]) =>
  items.filter((item) => item.gsi6sk === 'SCORE').map((item) => `${String(item.game_code)}\u0000${String(item.season_type)}\u0000${String(item.season_range)}`);

/** Takes the player off every board of those seasons; answers how many boards held them. */
export async function leaveRankPages(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, uid: string, seasons: readonly string[]): Promise<number> {
  const boards = seasons.flatMap((text) => {
    const [game, type, range] = text.split('\u0000') as [string, string, string];
    const season = parseSeasonRange(Number(type) as SeasonTypeValue, range);
    return season ? BOARDS.map((board) => ({ board, game, season })) : [];
  });
  return boards.length === 0 ? 0 : leaveBoards(deps, uid, boards);
}
