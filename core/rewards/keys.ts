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
export const rewardTableKey = (game: string) => ({ pk: `REWARD_TABLE#${game}`, sk: 'REWARD_TABLE' });
export const historyEntryKey = (id: number) => ({ pk: `HISTORYID#${id}`, sk: 'HISTORY' });
export const seasonHistoryPartition = (game: string, season: Season) => `HISTORY#${game}#${season.type}#${season.range}`;
export const settledKey = (game: string, season: Season) => ({ pk: seasonHistoryPartition(game, season), sk: 'SETTLED' });

/** The index attributes of a history entry. */
export function historyIndexKeys(entry: { id: number; game_code: string; rank: number; platform_player_id: string; create_time: string }, season: Season) {
  return {
    gsi1pk: playerRewardsPartition(entry.platform_player_id),
    gsi1sk: `${entry.create_time}#${sortableInt(entry.id)}`,
    gsi2pk: seasonHistoryPartition(entry.game_code, season),
    gsi2sk: sortableInt(entry.rank),
  };
}
