import { playerRewardsPartition } from '../identity/keys.js';
import { itemKind } from '../platform/item-kinds.js';

/**
 * Rewards' items that hold a player's data (core/platform/item-kinds.ts). A history entry is the studio's record of
 * what a season paid: kept pseudonymized, without its signed claim, which names the recipient inside its signed
 * bytes (a kept entry keeps its state, not the claim).
 */
export const historyEntry = itemKind({
  name: 'history entry',
  player: {
    reach: { index: 'gsi1', partition: ({ uid }) => playerRewardsPartition(uid) },
    deletion: { does: 'pseudonymized', drop: ['claim'] },
    export: { section: 'history' },
  },
});
