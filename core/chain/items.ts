import { type ItemKind, itemKind } from '../platform/item-kinds.js';

/** Every kind the chain domain declares (core/platform/item-kinds.ts): the indexer's place in an event type. */
export const ITEM_KINDS: readonly ItemKind<never>[] = [itemKind({ name: 'chain cursor', type: 'chain_cursor', player: { holdsNoPlayerData: true } })];
