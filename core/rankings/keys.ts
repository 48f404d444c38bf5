import type { Season } from './seasons.js';
import { seasonKey } from './seasons.js';

/**
 * Leaderboard keys. One item per (game, season, player) holds the player's kills and wins in that season. A
 * season of K shards (shards.ts) has K of each partition below, `#<shard>` (0 to K-1) after the season, the
 * player's shard being `shardOf(player, K)`; K = 1 has no suffix (the layout before shards):
 * - "a player's score in a season": pk `SCORE#<game>#<season>[#<shard>]`, sk `PLAYER#<game_player_id>`; the
 *   scores in `kills` and `wins` (numbers, `ADD`ed by reports), `killsAt`/`winsAt` when the player reached them
 *   (ties: earlier first). No index orders them: the ranks are kept from the table's stream (below). Items
 *   written before that hold their scores in `gsi4sk`/`gsi5sk` (then the board indexes' sort keys); a reader adds
 *   both (reports.ts `toScoreItem`), a report takes the item off the old indexes.
 * - "a board's live head" (rank-head.ts: the top players of one board, all shards together, as of the stream's
 *   last batch): pk `RANKS#<KILLS|WINS>#<game>#<season>`, sk `DIRECTORY` (its pages in order); each page pk
 *   `RANKS#<KILLS|WINS>#<game>#<season>#P<page id>`, sk `PAGE` (a partition per page); and sk `TOP` (the first
 *   MAX_BOARD standings, what gameRank reads);
 * - "a board's snapshot" (rank-snapshot.ts: every player of the board as of a periodic read of the season's
 *   score items): pk `RANKS#<KILLS|WINS>#<game>#<season>`, sk `SNAPSHOT`; each page pk
 *   `RANKS#<KILLS|WINS>#<game>#<season>#S<page id>`, sk `PAGE`;
 * - "a reported result" (makes a resubmission count once): pk `RESULT#<game>#<result id>`, sk `RESULT`;
 * - "seasons to settle" (each season with any score, until settled): pk `SEASONS`, sk `<end ISO>#<game>#<season>`,
 *   attributes game_code, season_type, season_range, start, end (ISO). Written by an UpdateItem of its own
 *   before the first report of the season in each process, not in any report's transaction and not by every
 *   report (reports.ts, rankings/known.ts): in a transaction, all reports of a game would conflict on it, and
 *   by every report, all reports of the platform would write one partition. The snapshot job and settlement
 *   find the seasons to read here.
 */
export type Board = 'kills' | 'wins';

/** A player's shard of K (FNV-1a of the id): the same for the life of a season. */
export function shardOf(playerId: string, shards: number): number {
  if (shards === 1) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < playerId.length; i++) hash = Math.imul(hash ^ playerId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % shards;
}

/** A partition's shard suffix: none for an unsharded season. */
const suffix = (shard: number, shards: number) => (shards === 1 ? '' : `#${shard}`);

/** The partition prefix of every score item (the boards' head consumer reads only these, rank-stream.ts). */
export const SCORE_PREFIX = 'SCORE#';
export const scorePartition = (game: string, season: Season, shard: number, shards: number) =>
  `${SCORE_PREFIX}${game}#${seasonKey(season)}${suffix(shard, shards)}`;
/** The sort key prefix of every score item: the player's id follows it. */
export const SCORE_PLAYER_PREFIX = 'PLAYER#';
export const scoreKey = (game: string, season: Season, playerId: string, shards: number) => ({
  pk: scorePartition(game, season, shardOf(playerId, shards), shards),
  sk: `${SCORE_PLAYER_PREFIX}${playerId}`,
});
/** The partition prefix of every item of a board's head and snapshot: its directories and top, and its pages. */
export const RANKS_PREFIX = 'RANKS#';
/** The sort keys of a board's head directory, its top and its snapshot's directory, in the board's partition. */
export const HEAD_DIRECTORY_SORT_KEY = 'DIRECTORY';
export const HEAD_TOP_SORT_KEY = 'TOP';
export const SNAPSHOT_DIRECTORY_SORT_KEY = 'SNAPSHOT';
/** The sort key of every rank page, a head's (`#P<id>` after the board) or a snapshot's (`#S<id>`): one a partition. */
export const RANK_PAGE_SORT_KEY = 'PAGE';
const ranksPartition = (board: Board, game: string, season: Season) => `${RANKS_PREFIX}${board === 'kills' ? 'KILLS' : 'WINS'}#${game}#${seasonKey(season)}`;
export const headDirectoryKey = (board: Board, game: string, season: Season) => ({ pk: ranksPartition(board, game, season), sk: HEAD_DIRECTORY_SORT_KEY });
export const headPageKey = (board: Board, game: string, season: Season, page: number) => ({
  pk: `${ranksPartition(board, game, season)}#P${page}`,
  sk: RANK_PAGE_SORT_KEY,
});
export const headTopKey = (board: Board, game: string, season: Season) => ({ pk: ranksPartition(board, game, season), sk: HEAD_TOP_SORT_KEY });
export const snapshotDirectoryKey = (board: Board, game: string, season: Season) => ({
  pk: ranksPartition(board, game, season),
  sk: SNAPSHOT_DIRECTORY_SORT_KEY,
});
export const snapshotPageKey = (board: Board, game: string, season: Season, page: number) => ({
  pk: `${ranksPartition(board, game, season)}#S${page}`,
  sk: RANK_PAGE_SORT_KEY,
});
/** The partition prefix and the sort key of every result record. */
export const RESULT_PREFIX = 'RESULT#';
export const RESULT_SORT_KEY = 'RESULT';
export const resultKey = (game: string, resultId: string) => ({ pk: `${RESULT_PREFIX}${game}#${resultId}`, sk: RESULT_SORT_KEY });
/** The partition of every season to settle: its sort keys begin with the season's end. */
export const OPEN_SEASONS = 'SEASONS';
export const openSeasonKey = (game: string, season: Season) => ({ pk: OPEN_SEASONS, sk: `${season.end.toISOString()}#${game}#${seasonKey(season)}` });
