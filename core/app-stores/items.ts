import { type ItemKind, itemKind } from '../platform/item-kinds.js';

/**
 * Every kind the app stores declare (core/platform/item-kinds.ts): a purchase's claim and the stores' notifications,
 * which name a store transaction and an order, never the player (the order does, and is payments' kind).
 */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  itemKind({ name: 'store transaction claim', type: 'store_tx', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'App Store notification', type: 'apple_notification', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'Google Play notification', type: 'google_notification', player: { holdsNoPlayerData: true } }),
];
