import { type ItemKind, itemKind } from '../platform/item-kinds.js';
import { deletionNonceKey } from './keys.js';

/**
 * The privacy domain's item that holds a player's data (core/platform/item-kinds.ts): an address's live deletion
 * message, which goes with the rest while it is still the player's.
 */
export const deletionNonce = itemKind({
  name: 'deletion message',
  type: 'deletion_nonce',
  player: {
    reach: { keys: ({ address }) => (address ? [deletionNonceKey(address)] : []) },
    deletion: { does: 'deleted', owned: (item, uid) => item.uid === undefined || item.uid === uid },
  },
});

/**
 * Every kind the privacy domain declares; a deleted player's mark is keyed by a digest of the uid, never the uid. A
 * deletion's record (`erasure`), its learned values (`erasure_learned`) and a studio's notice (`deletion_notice`) name
 * the player by design and have no declaration: the deletion itself writes, keeps and ends them.
 */
export const ITEM_KINDS: readonly ItemKind<never>[] = [deletionNonce, itemKind({ name: 'deleted player', type: 'gone', player: { holdsNoPlayerData: true } })];
