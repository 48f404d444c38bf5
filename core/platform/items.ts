import { type ItemKind, itemKind } from './item-kinds.js';
import { PLAYER_ITEMS_INDEX, playerItemsPartition } from './players.js';

/**
 * The platform's own item that holds a player's data (core/platform/item-kinds.ts): an idempotency record of a
 * player's request, or of one that names a player (its fingerprint and answer, for retries). It goes with the
 * player: a retry after the deletion finds nothing to answer.
 */
export const idempotencyRecord = itemKind({
  name: 'idempotency record',
  type: 'idempotency',
  player: {
    reach: { index: PLAYER_ITEMS_INDEX, partition: ({ uid }) => playerItemsPartition(uid), sortEquals: 'IDEMPOTENCY', keysOnly: true },
    deletion: { does: 'deleted' },
  },
});

/** Every kind the platform declares; its counters, jobs' records and day figures are the platform's own bookkeeping. */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  idempotencyRecord,
  itemKind({ name: 'counter', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'job run', type: 'job_run', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'job failure', type: 'job_failure', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'day figures', type: 'day_stats', player: { holdsNoPlayerData: true } }),
];
