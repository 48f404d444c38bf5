import { readItems, type Item } from '../platform/batch.js';
import type { PlatformDeps } from '../platform/deps.js';
import { rankLocatorKey, type Board } from '../rankings/keys.js';
import { applyStandingChanges } from '../rankings/rank-pages.js';
import { parseSeasonRange, type SeasonTypeValue } from '../rankings/seasons.js';

/**
 * The rank pages are kept from the table's stream (core/rankings/rank-stream.ts): deleting a player's score
 * items takes them off the pages a moment later. A stream batch the consumer kept failing on is dropped to the
 * jobs' dead-letter queue, and with it that removal; so the deletion's sweep looks, on each board of each season
 * the player had scores in, for the player's locator (which holds their id in its key) and takes them off the
 * pages itself where one is still there. Removing a player the pages no longer hold changes nothing.
 */
const BOARDS: Board[] = ['kills', 'wins'];

/** The seasons of the player's score items, as `<game>\u0000<type>\u0000<range>` (kept in the deletion's record). */
export const scoreSeasonsOf = (items: readonly Item[]) =>
  items.filter((item) => item.gsi6sk === 'SCORE').map((item) => `${String(item.game_code)}\u0000${String(item.season_type)}\u0000${String(item.season_range)}`);

/** Takes the player off every rank page a locator still places them on; answers how many boards that was. */
export async function leaveRankPages(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, uid: string, seasons: readonly string[]): Promise<number> {
  const boards = seasons.flatMap((text) => {
    const [game, type, range] = text.split('\u0000') as [string, string, string];
    const season = parseSeasonRange(Number(type) as SeasonTypeValue, range);
    return season ? BOARDS.map((board) => ({ board, game, season })) : [];
  });
  if (boards.length === 0) return 0;
  const locators = await readItems(
    deps,
    boards.map((ref) => rankLocatorKey(ref.board, ref.game, ref.season, uid)),
  );
  const placed = boards.filter((_, i) => locators[i] !== undefined);
  for (const ref of placed) await applyStandingChanges(deps, ref, [{ id: uid }]);
  return placed.length;
}
