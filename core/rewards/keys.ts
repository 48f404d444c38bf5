import { playerRewardsPartition } from '../identity/keys.js';
import { sortableInt } from '../platform/table.js';
import type { Season } from '../rankings/seasons.js';

/**
 * Keys of rewards and history (docs/data-model.md):
 * - "reward table of a game": pk `REWARD_TABLE#<game>`, sk `REWARD_TABLE` (one item per game);
 * - "history entry by id" (sign_code, get_sign, the claim event): pk `HISTORYID#<id>`, sk `HISTORY`;
 * - "history of a season, by rank" (history rank): gsi2pk `HISTORY#<game>#<type>#<range>`, gsi2sk rank
 *   zero-padded;
 * - "a player's rewards, newest first" (rewrad_history): gsi1pk `REWARDS#<platform_player_id>`, gsi1sk
 *   `<create_time>#<id zero-padded>`;
 * - "season settled" (the exactly-once guard): pk `HISTORY#<game>#<type>#<range>`, sk `SETTLED`, put on
 *   condition it is absent in the transaction that writes the season's entries.
 */
/** The partition prefixes and the sort keys of a game's reward table, a history entry and a season's settled marker. */
export const REWARD_TABLE_PREFIX = 'REWARD_TABLE#';
export const REWARD_TABLE_SORT_KEY = 'REWARD_TABLE';
export const HISTORY_ID_PREFIX = 'HISTORYID#';
export const HISTORY_SORT_KEY = 'HISTORY';
export const SEASON_HISTORY_PREFIX = 'HISTORY#';
export const SETTLED_SORT_KEY = 'SETTLED';
export const rewardTableKey = (game: string) => ({ pk: `${REWARD_TABLE_PREFIX}${game}`, sk: REWARD_TABLE_SORT_KEY });
export const historyEntryKey = (id: number) => ({ pk: `${HISTORY_ID_PREFIX}${id}`, sk: HISTORY_SORT_KEY });
export const seasonHistoryPartition = (game: string, season: Season) => `${SEASON_HISTORY_PREFIX}${game}#${season.type}#${season.range}`;
export const settledKey = (game: string, season: Season) => ({ pk: seasonHistoryPartition(game, season), sk: SETTLED_SORT_KEY });

/** The index attributes of a history entry. */
export function historyIndexKeys(entry: { id: number; game_code: string; rank: number; platform_player_id: string; create_time: string }, season: Season) {
  return {
    gsi1pk: playerRewardsPartition(entry.platform_player_id),
    gsi1sk: `${entry.create_time}#${sortableInt(entry.id)}`,
    gsi2pk: seasonHistoryPartition(entry.game_code, season),
    gsi2sk: sortableInt(entry.rank),
  };
}
