import { USER_PREFIX, userPartition } from '../identity/keys.js';
import { anyKey, exactly, type ItemKind, itemKind, startsWith } from '../platform/item-kinds.js';
import { historyEntry } from '../rewards/items.js';
import { StoredReservation } from './coins.js';
import { StoredGameDay, StoredPlayerDay } from './days.js';
import {
  COIN_PREFIX,
  COIN_SORT_KEY,
  PLAYER_DAY_PREFIX,
  SPONSORED_PREFIX,
  SPONSORED_SORT_KEY,
  SPONSORSHIP_PREFIX,
  SPONSORSHIP_SORT_KEY,
  STAGE_DAY_PREFIX,
  sponsoredKey,
} from './keys.js';
import { Sponsored } from './records.js';
import { StoredSponsorship } from './settings.js';

/**
 * Sponsored claims' items that hold a player's data (core/platform/item-kinds.ts): the transaction signed for one
 * of their rewards (its bytes name them as sender), reached through the entry, and their sponsored days, in their
 * own partition. Both go with the player; neither is exported (a transaction's bytes and a day's count say
 * nothing the history section does not).
 */
export const sponsoredClaim = itemKind({
  name: 'sponsored claim',
  type: 'sponsored_claim',
  keys: { pk: startsWith(SPONSORED_PREFIX), sk: exactly(SPONSORED_SORT_KEY) },
  model: Sponsored,
  player: {
    reach: { via: historyEntry, keysOf: (entry) => [sponsoredKey(Number(entry.id))] },
    deletion: { does: 'deleted' },
  },
});

export const sponsoredDay = itemKind({
  name: 'sponsored day of a player',
  type: 'sponsor_player_day',
  keys: { pk: startsWith(USER_PREFIX), sk: startsWith(PLAYER_DAY_PREFIX) },
  model: StoredPlayerDay,
  player: { reach: { own: userPartition }, deletion: { does: 'deleted' } },
});

/** Every kind sponsored claims declare; a game's sponsorship and day, and a coin's reservation, name no player. */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  sponsoredClaim,
  sponsoredDay,
  itemKind({
    name: 'sponsorship',
    type: 'sponsorship',
    keys: { pk: startsWith(SPONSORSHIP_PREFIX), sk: exactly(SPONSORSHIP_SORT_KEY) },
    model: StoredSponsorship,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'sponsored day of a game',
    type: 'sponsor_game_day',
    // The sort key is the game's code alone.
    keys: { pk: startsWith(STAGE_DAY_PREFIX), sk: anyKey },
    model: StoredGameDay,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'gas coin reservation',
    type: 'gas_coin_reservation',
    keys: { pk: startsWith(COIN_PREFIX), sk: exactly(COIN_SORT_KEY) },
    model: StoredReservation,
    player: { holdsNoPlayerData: true },
  }),
];
