import type { Season } from './seasons.js';
import { seasonKey } from './seasons.js';

/**
 * Leaderboard keys. One item per (game, season, player) holds the player's kills and wins in that season. A
 * season of K shards (shards.ts) has K of each partition below, `#<shard>` (0 to K-1) after the season, the
 * player's shard being `shardOf(player, K)`; K = 1 has no suffix (the layout before shards):
 * - "a player's score in a season": pk `SCORE#<game>#<season>[#<shard>]`, sk `PLAYER#<game_player_id>`;
 * - "kills board of a season's shard, highest first": gsi4pk `KILLS#<game>#<season>[#<shard>]`, gsi4sk = the
 *   kills (a number);
 * - "wins board of a season's shard, highest first": gsi5pk `WINS#<game>#<season>[#<shard>]`, gsi5sk = the wins.
 * The scores are stored IN the board sort keys (there is no separate `kills`/`wins` attribute): an index sort
 * key cannot be derived from another attribute, and `ADD gsi4sk :k` updates score and board position in one
 * atomic write (reports.ts `toScoreItem` reads them back as kills and wins). Boards are sparse: gsi4pk/gsi5pk
 * are set only once the score is positive, so players at 0 are on no board. `killsAt`/`winsAt` record when
 * the player reached the current score, which breaks ties (earlier first).
 * - "a board's rank directory" (rank-pages.ts: every page of a board in order, with its count and first
 *   standing): pk `RANKS#<KILLS|WINS>#<game>#<season>`, sk `DIRECTORY`; one per board and season, all shards;
 * - "a page of a board's ranks" (rank-pages.ts: up to MAX_PAGE standings in board order): pk
 *   `RANKS#<KILLS|WINS>#<game>#<season>#P<page id>`, sk `PAGE`: a partition per page, so the pages one batch
 *   of changes rewrites do not share one partition's throughput;
 * - "where a player stands on a board's rank pages" (rank-pages.ts): pk
 *   `RANKS#<KILLS|WINS>#<game>#<season>#WHO#<player id>`, sk `WHO`; the score and time the pages hold for the
 *   player, so a change removes the entry that is there, whatever changes were missed before it;
 * - "a reported result" (makes a resubmission count once): pk `RESULT#<game>#<result id>`, sk `RESULT`;
 * - "seasons to settle" (each season with any score, until settled): pk `SEASONS`, sk `<end ISO>#<game>#<season>`,
 *   attributes game_code, season_type, season_range, start, end (ISO). Written by an UpdateItem of its own
 *   before the first report of the season in each process, not in any report's transaction and not by every
 *   report (reports.ts, rankings/known.ts): in a transaction, all reports of a game would conflict on it, and
 *   by every report, all reports of the platform would write one partition.
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

/** The partition prefix of every score item (the rank pages' stream consumer reads only these, rank-stream.ts). */
export const SCORE_PREFIX = 'SCORE#';
export const scorePartition = (game: string, season: Season, shard: number, shards: number) =>
  `${SCORE_PREFIX}${game}#${seasonKey(season)}${suffix(shard, shards)}`;
/** The sort key prefix of every score item: the player's id follows it. */
export const SCORE_PLAYER_PREFIX = 'PLAYER#';
export const scoreKey = (game: string, season: Season, playerId: string, shards: number) => ({
  pk: scorePartition(game, season, shardOf(playerId, shards), shards),
  sk: `${SCORE_PLAYER_PREFIX}${playerId}`,
});
export const boardIndex = { kills: 'gsi4', wins: 'gsi5' } as const;
export const boardPartition = (board: Board, game: string, season: Season, shard: number, shards: number) =>
  `${board === 'kills' ? 'KILLS' : 'WINS'}#${game}#${seasonKey(season)}${suffix(shard, shards)}`;
const ranksPartition = (board: Board, game: string, season: Season) => `RANKS#${board === 'kills' ? 'KILLS' : 'WINS'}#${game}#${seasonKey(season)}`;
export const rankDirectoryKey = (board: Board, game: string, season: Season) => ({ pk: ranksPartition(board, game, season), sk: 'DIRECTORY' });
export const rankPageKey = (board: Board, game: string, season: Season, page: number) => ({
  pk: `${ranksPartition(board, game, season)}#P${page}`,
  sk: 'PAGE',
});
export const rankLocatorKey = (board: Board, game: string, season: Season, playerId: string) => ({
  pk: `${ranksPartition(board, game, season)}#WHO#${playerId}`,
  sk: 'WHO',
});
/** The partition prefix of every result record. */
export const RESULT_PREFIX = 'RESULT#';
export const resultKey = (game: string, resultId: string) => ({ pk: `${RESULT_PREFIX}${game}#${resultId}`, sk: 'RESULT' });
export const openSeasonKey = (game: string, season: Season) => ({ pk: 'SEASONS', sk: `${season.end.toISOString()}#${game}#${seasonKey(season)}` });
