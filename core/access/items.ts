import { type ItemKind, itemKind } from '../platform/item-kinds.js';

/**
 * Every kind access declares (core/platform/item-kinds.ts): a console account's revocations and a merchant's server
 * tokens, a studio's, never a player's.
 */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  itemKind({ name: 'revocation', type: 'revocation', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'server token', type: 'server-token', player: { holdsNoPlayerData: true } }),
];
