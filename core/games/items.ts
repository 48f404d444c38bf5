import { exactly, type ItemKind, itemKind, startsWith } from '../platform/item-kinds.js';
import { StoredGame } from './games.js';
import { GAME_PREFIX, GAME_SORT } from './keys.js';

/**
 * Every kind the games domain declares (core/platform/item-kinds.ts): a studio's game (its count is a platform
 * counter), in its merchant's games (gsi1), all games (gsi2) and, while its merchant is active, the live games (gsi3,
 * which core/merchants/merchants.ts sets and removes with the merchant's status).
 */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  itemKind({
    name: 'game',
    type: 'game',
    keys: { pk: startsWith(GAME_PREFIX), sk: exactly(GAME_SORT) },
    indexes: ['gsi1', 'gsi2', 'gsi3'],
    model: StoredGame,
    player: { holdsNoPlayerData: true },
  }),
];
