/**
 * The games domain's keys, built here alone (games.ts holds the catalogue's access patterns).
 */
/** "game by code" (unique platform-wide): pk `GAME#<code>`, sk `GAME`. */
export const gameKey = (code: string) => ({ pk: `GAME#${code}`, sk: 'GAME' });
