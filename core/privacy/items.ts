import { itemKind } from '../platform/item-kinds.js';
import { deletionNonceKey } from './keys.js';

/**
 * The privacy domain's item that holds a player's data (core/platform/item-kinds.ts): an address's live deletion
 * message, which goes with the rest while it is still the player's.
 */
export const deletionNonce = itemKind({
  name: 'deletion message',
  player: {
    reach: { keys: ({ address }) => (address ? [deletionNonceKey(address)] : []) },
    deletion: { does: 'deleted', owned: (item, uid) => item.uid === undefined || item.uid === uid },
  },
});
