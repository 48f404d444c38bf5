import { playerRewardsPartition } from '../identity/keys.js';
import { exactly, type ItemKind, itemKind, startsWith } from '../platform/item-kinds.js';
import { StoredHistoryEntry } from './history.js';
import { HISTORY_ID_PREFIX, HISTORY_SORT_KEY, REWARD_TABLE_PREFIX, REWARD_TABLE_SORT_KEY, SEASON_HISTORY_PREFIX, SETTLED_SORT_KEY } from './keys.js';
import { StoredSettledMarker } from './settlement.js';
import { StoredRewardTable } from './table.js';

/**
 * Rewards' items that hold a player's data (core/platform/item-kinds.ts). A history entry is the studio's record of
 * what a season paid: kept pseudonymized, without its signed claim, which names the recipient inside its signed
 * bytes (a kept entry keeps its state, not the claim). It is in a player's rewards (gsi1) and in its ranking's list
 * (gsi2: the season's, or a league cohort's in its place).
 */
export const historyEntry = itemKind({
  name: 'history entry',
  type: 'history_rank',
  keys: { pk: startsWith(HISTORY_ID_PREFIX), sk: exactly(HISTORY_SORT_KEY) },
  indexes: ['gsi1', 'gsi2'],
  model: StoredHistoryEntry,
  player: {
    reach: { index: 'gsi1', partition: ({ uid }) => playerRewardsPartition(uid) },
    deletion: { does: 'pseudonymized', drop: ['claim'] },
    export: { section: 'history' },
  },
});

/** Every kind rewards declares; a game's reward table and a season's settled marker name no player. */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  historyEntry,
  itemKind({
    name: 'reward table',
    type: 'reward_table',
    keys: { pk: startsWith(REWARD_TABLE_PREFIX), sk: exactly(REWARD_TABLE_SORT_KEY) },
    model: StoredRewardTable,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'settled marker',
    type: 'season_settled',
    keys: { pk: startsWith(SEASON_HISTORY_PREFIX), sk: exactly(SETTLED_SORT_KEY) },
    model: StoredSettledMarker,
    player: { holdsNoPlayerData: true },
  }),
];
