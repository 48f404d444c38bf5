import { merchantGameCodes } from '../games/games.js';
import { readItems } from '../platform/batch.js';
import type { PlatformDeps } from '../platform/deps.js';
import { scoreKey } from './keys.js';
import { toScoreItem } from './items.js';
import { monthOf, weekOf } from './seasons.js';
import { seasonShards } from './shards.js';

/** The most of a studio's games (its newest) whose current boards a view of a player reads. */
export const PLAYER_SCORE_GAMES = 50;

/**
 * A player's scores on the current week's and month's boards of a studio's games (player_view): the studio's
 * newest PLAYER_SCORE_GAMES games (one Query, codes only), each game's shard count for the two seasons (the game
 * item's setting, remembered a minute per process: shards.ts), then the player's score item in each (in their
 * shard) in one BatchGetItem of at most 100 keys (eventually consistent: a report a moment old may not show yet). Boards where the player has no score are left out. Keys are
 * only ever the studio's games', so no other studio's score can be read.
 */
export async function studioScores(deps: PlatformDeps, accountId: string, playerId: string) {
  const games = await merchantGameCodes(deps, accountId, PLAYER_SCORE_GAMES);
  const now = deps.now();
  const seasons = [weekOf(now), monthOf(now)];
  const boards = await Promise.all(games.flatMap((game) => seasons.map(async (season) => ({ game, season, shards: await seasonShards(deps, game, season) }))));
  const items = await readItems(
    deps,
    boards.map((board) => scoreKey(board.game, board.season, playerId, board.shards)),
    { consistent: false },
  );
  return boards.flatMap((board, i) => {
    const item = items[i];
    if (!item) return [];
    const score = toScoreItem(item);
    return [{ game_code: board.game, season_type: board.season.type, season_range: board.season.range, kills: score.kills, wins: score.wins }];
  });
}
