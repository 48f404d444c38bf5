import { itemKind } from './item-kinds.js';
import { PLAYER_ITEMS_INDEX, playerItemsPartition } from './players.js';

/**
 * The platform's own item that holds a player's data (core/platform/item-kinds.ts): an idempotency record of a
 * player's request, or of one that names a player (its fingerprint and answer, for retries). It goes with the
 * player: a retry after the deletion finds nothing to answer.
 */
export const idempotencyRecord = itemKind({
  name: 'idempotency record',
  player: {
    reach: { index: PLAYER_ITEMS_INDEX, partition: ({ uid }) => playerItemsPartition(uid), sortEquals: 'IDEMPOTENCY', keysOnly: true },
    deletion: { does: 'deleted' },
  },
});
