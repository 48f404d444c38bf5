import { COUNTER_PREFIX, COUNTER_SORT_KEY, StoredCounter } from './counters.js';
import { DAY_STATS_PREFIX, DAY_STATS_SORT_KEY, StoredDayStats } from './day-stats.js';
import { IDEMPOTENCY_PREFIX, IDEMPOTENCY_SORT_KEY, StoredIdempotencyRecord } from './idempotency.js';
import { anyKey, exactly, type ItemKind, itemKind, startsWith } from './item-kinds.js';
import { JOB_FAILURE_PREFIX, JOB_RUN_PREFIX, JOB_RUN_SORT_KEY, StoredJobFailure, StoredJobRun } from './job-runs.js';
import { PLAYER_ITEMS_INDEX, playerItemsPartition } from './players.js';

/**
 * The platform's own item that holds a player's data (core/platform/item-kinds.ts): an idempotency record of a
 * player's request, or of one that names a player (its fingerprint and answer, for retries). It goes with the
 * player: a retry after the deletion finds nothing to answer. Only a record that names a player is in the
 * player's items that no key leads to (gsi6).
 */
export const idempotencyRecord = itemKind({
  name: 'idempotency record',
  type: 'idempotency',
  keys: { pk: startsWith(IDEMPOTENCY_PREFIX), sk: exactly(IDEMPOTENCY_SORT_KEY) },
  indexes: [PLAYER_ITEMS_INDEX],
  model: StoredIdempotencyRecord,
  player: {
    reach: { index: PLAYER_ITEMS_INDEX, partition: ({ uid }) => playerItemsPartition(uid), sortEquals: 'IDEMPOTENCY', keysOnly: true },
    deletion: { does: 'deleted' },
  },
});

/**
 * Every kind the platform declares; its counters, jobs' records and day figures are the platform's own bookkeeping.
 * A counter has no `type` (an `ADD` makes it). A deleted player's gone mark (core/platform/players.ts goneKey) is
 * written by the privacy domain, which declares it.
 */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  idempotencyRecord,
  itemKind({
    name: 'counter',
    keys: { pk: startsWith(COUNTER_PREFIX), sk: exactly(COUNTER_SORT_KEY) },
    model: StoredCounter,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'job run',
    type: 'job_run',
    keys: { pk: startsWith(JOB_RUN_PREFIX), sk: exactly(JOB_RUN_SORT_KEY) },
    model: StoredJobRun,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'job failure',
    type: 'job_failure',
    // The sort key begins with the run's end, an ISO instant.
    keys: { pk: startsWith(JOB_FAILURE_PREFIX), sk: anyKey },
    model: StoredJobFailure,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'day figures',
    type: 'day_stats',
    keys: { pk: startsWith(DAY_STATS_PREFIX), sk: exactly(DAY_STATS_SORT_KEY) },
    model: StoredDayStats,
    player: { holdsNoPlayerData: true },
  }),
];
