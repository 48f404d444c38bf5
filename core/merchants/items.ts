import { type ItemKind, itemKind } from '../platform/item-kinds.js';

/**
 * Every kind the merchants domain declares (core/platform/item-kinds.ts): a console account (its email), a merchant
 * and the failed logins of an email and a source, a studio's people, never a player. A console account's `type` is
 * `account`, as a player's account's is: each domain declares its own.
 */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  itemKind({ name: 'console account', type: 'account', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'merchant', type: 'merchant', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'login throttle', type: 'login-throttle', player: { holdsNoPlayerData: true } }),
];
