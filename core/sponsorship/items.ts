import { userPartition } from '../identity/keys.js';
import { type ItemKind, itemKind } from '../platform/item-kinds.js';
import { historyEntry } from '../rewards/items.js';
import { PLAYER_DAY_PREFIX, sponsoredKey } from './keys.js';

/**
 * Sponsored claims' items that hold a player's data (core/platform/item-kinds.ts): the transaction signed for one
 * of their rewards (its bytes name them as sender), reached through the entry, and their sponsored days, in their
 * own partition. Both go with the player; neither is exported (a transaction's bytes and a day's count say
 * nothing the history section does not).
 */
export const sponsoredClaim = itemKind({
  name: 'sponsored claim',
  type: 'sponsored_claim',
  player: {
    reach: { via: historyEntry, keysOf: (entry) => [sponsoredKey(Number(entry.id))] },
    deletion: { does: 'deleted' },
  },
});

export const sponsoredDay = itemKind({
  name: 'sponsored day of a player',
  type: 'sponsor_player_day',
  player: { reach: { own: userPartition, sortPrefix: PLAYER_DAY_PREFIX }, deletion: { does: 'deleted' } },
});

/** Every kind sponsored claims declare; a game's sponsorship and day, and a coin's reservation, name no player. */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  sponsoredClaim,
  sponsoredDay,
  itemKind({ name: 'sponsorship', type: 'sponsorship', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'sponsored day of a game', type: 'sponsor_game_day', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'gas coin reservation', type: 'gas_coin_reservation', player: { holdsNoPlayerData: true } }),
];
