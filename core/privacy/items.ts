import { anyKey, exactly, type ItemKind, itemKind, startsWith } from '../platform/item-kinds.js';
import { GONE_PREFIX, GONE_SORT_KEY, StoredGoneMark } from '../platform/players.js';
import { DELETION_NONCE_PREFIX, DELETION_NONCE_SORT, deletionNonceKey, ERASURE_PREFIX, ERASURE_SORT, LEARNED_PREFIX, NOTICES_PREFIX } from './keys.js';
import { ErasureRecord, StoredLearned } from './models.js';
import { StoredNotice } from './notices.js';
import { StoredMessage } from './proof.js';

/**
 * The privacy domain's item that holds a player's data (core/platform/item-kinds.ts): an address's live deletion
 * message, which goes with the rest while it is still the player's.
 */
export const deletionNonce = itemKind({
  name: 'deletion message',
  type: 'deletion_nonce',
  keys: { pk: startsWith(DELETION_NONCE_PREFIX), sk: exactly(DELETION_NONCE_SORT) },
  model: StoredMessage,
  player: {
    reach: { keys: ({ address }) => (address ? [deletionNonceKey(address)] : []) },
    deletion: { does: 'deleted', owned: (item, uid) => item.uid === undefined || item.uid === uid },
  },
});

/**
 * A deletion's record, in "deletions that have not finished" (gsi3) until its sweep. It names the player by design,
 * as what the run needs to find their items again after a crash; keyed by the proof, it is the deletion's own.
 */
export const erasure = itemKind({
  name: 'deletion record',
  type: 'erasure',
  keys: { pk: startsWith(ERASURE_PREFIX), sk: exactly(ERASURE_SORT) },
  indexes: ['gsi3'],
  model: ErasureRecord,
  player: {
    ownFlow:
      'deletion.ts deleteAccount writes it as the deletion starts, with the player’s id, address and zkLogin identity, and sweep (the deletions job’s, after the answer) removes them, leaving the answer until it expires; keyed by a digest of the deletion’s proof, which neither the player’s id nor their address leads to.',
  },
});

/** A value a deletion learned of the player, beside its record (learned.ts); learned.ts reads its `value` alone. */
export const erasureLearned = itemKind({
  name: 'value a deletion learned',
  type: 'erasure_learned',
  keys: { pk: startsWith(ERASURE_PREFIX), sk: startsWith(LEARNED_PREFIX) },
  model: StoredLearned,
  player: {
    ownFlow:
      'learned.ts keepLearned puts each value the deletion learns of the player (identifiers, names, studios, NFTs, seasons) beside its record, and forgetLearned, which the deletion’s sweep runs, deletes them; keyed by a digest of the deletion’s proof and of the value, which neither the player’s id nor their address leads to.',
  },
});

/** A studio's notice of a deleted player: the one item meant to name the player once the deletion is done. */
export const deletionNotice = itemKind({
  name: 'deletion notice',
  type: 'deletion_notice',
  // The sort key begins with the deletion's time, an ISO instant.
  keys: { pk: startsWith(NOTICES_PREFIX), sk: anyKey },
  model: StoredNotice,
  player: {
    ownFlow:
      'notices.ts writeNotices puts it as the deletion ends, for the studio to delete what it holds of the player, and the table’s TTL removes it NOTICE_DAYS later (deletedPlayers shows none past then); keyed by the studio and the deletion’s time, which neither the player’s id nor their address leads to.',
  },
});

/** Every kind the privacy domain declares; a deleted player's mark is keyed by a digest of the uid, never the uid. */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  deletionNonce,
  erasure,
  erasureLearned,
  deletionNotice,
  itemKind({
    name: 'deleted player',
    type: 'gone',
    keys: { pk: startsWith(GONE_PREFIX), sk: exactly(GONE_SORT_KEY) },
    model: StoredGoneMark,
    player: { holdsNoPlayerData: true },
  }),
];
