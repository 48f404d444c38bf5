import { exactly, type ItemKind, itemKind, startsWith } from '../platform/item-kinds.js';
import { APPLE_NOTE_PREFIX, APPLE_NOTE_SORT, GOOGLE_MESSAGE_PREFIX, GOOGLE_MESSAGE_SORT, STORE_TX_PREFIX, STORE_TX_SORT } from './keys.js';
import { SeenNotification, StoredGoogleMessage } from './models.js';
import { ClaimItem } from './purchase-claims.js';

/**
 * Every kind the app stores declare (core/platform/item-kinds.ts): a purchase's claim and the stores' notifications,
 * which name a store transaction and an order, never the player (the order does, and is payments' kind).
 */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  itemKind({
    name: 'store transaction claim',
    type: 'store_tx',
    keys: { pk: startsWith(STORE_TX_PREFIX), sk: exactly(STORE_TX_SORT) },
    model: ClaimItem,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'App Store notification',
    type: 'apple_notification',
    keys: { pk: startsWith(APPLE_NOTE_PREFIX), sk: exactly(APPLE_NOTE_SORT) },
    model: SeenNotification,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'Google Play notification',
    type: 'google_notification',
    keys: { pk: startsWith(GOOGLE_MESSAGE_PREFIX), sk: exactly(GOOGLE_MESSAGE_SORT) },
    model: StoredGoogleMessage,
    player: { holdsNoPlayerData: true },
  }),
];
