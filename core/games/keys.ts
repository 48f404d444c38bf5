/**
 * The games domain's keys, built here alone (games.ts holds the catalogue's access patterns).
 */
/** The partition prefix and the sort key of a game. */
export const GAME_PREFIX = 'GAME#';
export const GAME_SORT = 'GAME';
/** "game by code" (unique platform-wide): pk `GAME#<code>`, sk `GAME`. */
export const gameKey = (code: string) => ({ pk: `${GAME_PREFIX}${code}`, sk: GAME_SORT });
