import { ownerOf } from '../access/owners.js';
import { gameError } from '../games/errors.js';
import { readItems } from '../platform/batch.js';
import type { PlatformDeps } from '../platform/deps.js';
import { type Board, headTopKey } from './keys.js';
import type { GameRank, RankEntry } from './models.js';
import { type PageEntry, StoredTop, toEntries } from './rank-pages.js';
import { monthOf, type Season, weekOf } from './seasons.js';

const toRankEntry = (entry: PageEntry): RankEntry => ({ total: String(entry.score), game_player_id: entry.id, game_player_name: entry.name });

/**
 * gameRank: the top `limit` of the four boards of the game's current week and month, from each board's kept top
 * (rank-head.ts, a second or two behind the reports): one BatchGetItem of four items whatever the game's shards,
 * with the game's existence (a cached read: games are never deleted) beside it. Eventually consistent: the top
 * is already a stream batch behind, and half the read units.
 */
export async function gameRank(deps: PlatformDeps, game: string, limit: number): Promise<GameRank> {
  const now = deps.now();
  const boards: [Board, Season][] = [
    ['kills', weekOf(now)],
    ['wins', weekOf(now)],
    ['kills', monthOf(now)],
    ['wins', monthOf(now)],
  ];
  const [owner, tops] = await Promise.all([
    ownerOf(deps, 'game', game),
    readItems(
      deps,
      boards.map(([board, season]) => headTopKey(board, game, season)),
      { consistent: false },
    ),
  ]);
  if (owner === undefined) throw gameError('game.not_found', `game_code: no game ${game}`);
  const [weekKills, weekWins, monthKills, monthWins] = tops.map((item) => (item ? toEntries(StoredTop.parse(item).data).slice(0, limit).map(toRankEntry) : []));
  return { gameWeekKillRank: weekKills!, gameWeekWinRank: weekWins!, gameMothKillRank: monthKills!, gameMothWinRank: monthWins! };
}
