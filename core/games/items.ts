import { type ItemKind, itemKind } from '../platform/item-kinds.js';

/** Every kind the games domain declares (core/platform/item-kinds.ts): a studio's game (its count is a platform counter). */
export const ITEM_KINDS: readonly ItemKind<never>[] = [itemKind({ name: 'game', type: 'game', player: { holdsNoPlayerData: true } })];
