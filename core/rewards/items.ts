import { playerRewardsPartition } from '../identity/keys.js';
import { type ItemKind, itemKind } from '../platform/item-kinds.js';

/**
 * Rewards' items that hold a player's data (core/platform/item-kinds.ts). A history entry is the studio's record of
 * what a season paid: kept pseudonymized, without its signed claim, which names the recipient inside its signed
 * bytes (a kept entry keeps its state, not the claim).
 */
export const historyEntry = itemKind({
  name: 'history entry',
  type: 'history_rank',
  player: {
    reach: { index: 'gsi1', partition: ({ uid }) => playerRewardsPartition(uid) },
    deletion: { does: 'pseudonymized', drop: ['claim'] },
    export: { section: 'history' },
  },
});

/** Every kind rewards declares; a game's reward table and a season's settled marker name no player. */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  historyEntry,
  itemKind({ name: 'reward table', type: 'reward_table', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'settled marker', type: 'season_settled', player: { holdsNoPlayerData: true } }),
];
