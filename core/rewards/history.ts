import type { RewardsDeps } from './deps.js';
import { queryItems } from '../platform/query.js';
import type { Season } from '../rankings/seasons.js';
import { playerRewardsPartition } from '../identity/keys.js';
import { seasonHistoryPartition } from './keys.js';
import * as z from 'zod/mini';
import { HistoryEntry } from './models.js';
import { jsonInteger, storedAmount, toBigInt } from '../shared/amounts.js';
import { objectOf } from '../shared/records.js';

/**
 * "a history entry" (historyEntryKey) and its indexes: the contract's entry as stored, with the reward a
 * storedAmount (keys, the claim and internal attributes such as the player's name stay inside).
 */
export const StoredHistoryEntry = z.lazy(() => z.extend(z.omit(objectOf(HistoryEntry), { reward_amount_base: true }), { reward_amount: storedAmount }));

/** The contract's fields of a stored history entry. */
export function toHistoryEntry(item: Record<string, unknown>): HistoryEntry {
  const entry = StoredHistoryEntry.parse(item);
  return { ...entry, reward_amount: jsonInteger(entry.reward_amount), reward_amount_base: toBigInt(entry.reward_amount).toString() };
}

/**
 * history rank: the entries of one season of a game, by rank, in one Query (gsi2 `HISTORY#<game>#<type>#<range>`).
 * A season not settled yet, or of an unknown game, has none: an empty list.
 */
export async function seasonHistory(deps: Pick<RewardsDeps, 'db' | 'table'>, game: string, season: Season): Promise<HistoryEntry[]> {
  const items = await queryItems(deps, {
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': seasonHistoryPartition(game, season) },
    ScanIndexForward: true,
  });
  return items.map(toHistoryEntry);
}

/**
 * rewrad_history: the caller's history entries (platform_player_id = the token's subject), newest first, with
 * their claim status, in one Query of the player's partition (gsi1 `REWARDS#<uid>`); a page is a slice of it.
 * A player has a few entries per game and season, so the whole partition is small; past 1 MB the Query
 * follows its pages.
 */
export async function rewardHistory(deps: Pick<RewardsDeps, 'db' | 'table'>, uid: string, page: number, pageSize: number) {
  const items = await queryItems(deps, {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': playerRewardsPartition(uid) },
    ScanIndexForward: false,
  });
  return {
    data: items.slice(page * pageSize, (page + 1) * pageSize).map(toHistoryEntry),
    totalPage: Math.ceil(items.length / pageSize),
  };
}
