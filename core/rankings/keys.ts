import type { Season } from './seasons.js';
import { seasonKey } from './seasons.js';

/**
 * Leaderboard keys. One item per (game, season, player) holds the player's kills and wins in that season:
 * - "a player's score in a season": pk `SCORE#<game>#<season>`, sk `PLAYER#<game_player_id>`;
 * - "kills board of a season, highest first": gsi4pk `KILLS#<game>#<season>`, gsi4sk = kills (a number);
 * - "wins board of a season, highest first": gsi5pk `WINS#<game>#<season>`, gsi5sk = wins (a number).
 * `ADD kills :k, wins :w` updates score and board position in one atomic write; `killsAt`/`winsAt` record
 * when the player reached the current score, which breaks ties (earlier first).
 * - "a reported result" (makes a resubmission count once): pk `RESULT#<game>#<result id>`, sk `RESULT`;
 * - "seasons to settle" (each season with any score, until settled): pk `SEASONS`, sk `<end ISO>#<game>#<season>`.
 */
export type Board = 'kills' | 'wins';

export const scoreKey = (game: string, season: Season, playerId: string) => ({ pk: `SCORE#${game}#${seasonKey(season)}`, sk: `PLAYER#${playerId}` });
export const boardIndex = { kills: 'gsi4', wins: 'gsi5' } as const;
export const boardPartition = (board: Board, game: string, season: Season) => `${board === 'kills' ? 'KILLS' : 'WINS'}#${game}#${seasonKey(season)}`;
export const resultKey = (game: string, resultId: string) => ({ pk: `RESULT#${game}#${resultId}`, sk: 'RESULT' });
export const openSeasonKey = (game: string, season: Season) => ({ pk: 'SEASONS', sk: `${season.end.toISOString()}#${game}#${seasonKey(season)}` });
