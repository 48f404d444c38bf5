import { userPartition } from '../identity/keys.js';

/**
 * Keys of sponsored claims (docs/data-model.md):
 * - "a game's sponsorship" (its claim function and its own limits): pk `SPONSORSHIP#<game>`, sk `SETTINGS`;
 * - "a game's sponsored day" (claims and gas signed that UTC day, for its limit): pk `SPONSOREDDAY#<yyyy-mm-dd>`,
 *   sk the game's code; one Query of a day's partition lists every game's day for the stage screen. The partition
 *   takes one write per sponsored claim of the whole stage, which the daily limits keep far under a partition's
 *   thousand writes a second;
 * - "a player's sponsored day": pk `USER#<uid>`, sk `SPONSORDAY#<yyyy-mm-dd>`, in the player's own partition;
 * - "a gas coin's reservation" (the transaction a sponsor coin is signed into): pk `GASCOIN#<object id>`, sk
 *   `GASCOIN`.
 * Day items expire (expiresAt, days.ts): a limit reads only today's, the stage screen a month of a game's.
 */
/** The partition prefixes and the sort keys of the items above, as their builders spell them. */
export const SPONSORSHIP_PREFIX = 'SPONSORSHIP#';
export const SPONSORSHIP_SORT_KEY = 'SETTINGS';
const gamePartition = (game: string) => `${SPONSORSHIP_PREFIX}${game}`;
export const sponsorshipKey = (game: string) => ({ pk: gamePartition(game), sk: SPONSORSHIP_SORT_KEY });
export const STAGE_DAY_PREFIX = 'SPONSOREDDAY#';
export const stageDayPartition = (day: string) => `${STAGE_DAY_PREFIX}${day}`;
export const gameDayKey = (game: string, day: string) => ({ pk: stageDayPartition(day), sk: game });
export const PLAYER_DAY_PREFIX = 'SPONSORDAY#';
export const playerDayKey = (uid: string, day: string) => ({ pk: userPartition(uid), sk: `${PLAYER_DAY_PREFIX}${day}` });
export const COIN_PREFIX = 'GASCOIN#';
export const COIN_SORT_KEY = 'GASCOIN';
export const coinKey = (objectId: string) => ({ pk: `${COIN_PREFIX}${objectId}`, sk: COIN_SORT_KEY });
export const SPONSORED_PREFIX = 'SPONSORED#';
export const SPONSORED_SORT_KEY = 'SPONSORED';
/** "a sponsored claim": the transaction signed for a history entry, pk `SPONSORED#<entry id>`, sk `SPONSORED`. */
export const sponsoredKey = (entry: number) => ({ pk: `${SPONSORED_PREFIX}${entry}`, sk: SPONSORED_SORT_KEY });
