import { exactly, type ItemKind, itemKind, startsWith } from '../platform/item-kinds.js';
import { StoredCursor } from './indexer.js';
import { CURSOR_PREFIX, CURSOR_SORT } from './keys.js';

/** Every kind the chain domain declares (core/platform/item-kinds.ts): the indexer's place in an event type. */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  itemKind({
    name: 'chain cursor',
    type: 'chain_cursor',
    keys: { pk: startsWith(CURSOR_PREFIX), sk: exactly(CURSOR_SORT) },
    model: StoredCursor,
    player: { holdsNoPlayerData: true },
  }),
];
