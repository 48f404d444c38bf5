import { type ItemKind, itemKind, type PlayerRef } from '../platform/item-kinds.js';
import type { Item } from '../platform/batch.js';
import { nonceKey, socialBindingKeyOfListing, userPartition, walletKey } from './keys.js';

/**
 * Identity's items that hold a player's data (core/platform/item-kinds.ts). The account, its parameters and its
 * social listing are in the player's own partition and go with the deletion; the export shows them in its
 * profile (core/privacy/export.ts), not as sections. The address's binding and sign-in nonce go while they are
 * still the player's.
 */
const stillTheirs = (item: Item, uid: string) => item.uid === undefined || item.uid === uid;
const ofAddress = (key: (address: string) => { pk: string; sk: string }) => (player: PlayerRef) => (player.address ? [key(player.address)] : []);

export const playerAccount = itemKind({
  name: 'account',
  type: 'account',
  player: { reach: { own: userPartition, sortPrefix: 'ACCOUNT' }, deletion: { does: 'deleted' } },
});

export const playerParams = itemKind({
  name: 'params',
  type: 'params',
  player: { reach: { own: userPartition, sortPrefix: 'PARAMS' }, deletion: { does: 'deleted' } },
});

export const socialListing = itemKind({
  name: 'social binding (a user’s listing)',
  type: 'social_binding',
  player: { reach: { own: userPartition, sortPrefix: 'SOCIAL#' }, deletion: { does: 'deleted' } },
});

/** The binding a listing names: gone only while it is still this player's. */
export const socialBinding = itemKind({
  name: 'social binding (user of a social account)',
  type: 'social',
  player: {
    reach: { via: socialListing, keysOf: (listing) => [socialBindingKeyOfListing(String(listing.sk))] },
    deletion: { does: 'deleted', owned: (item, uid) => item.uid === uid },
  },
});

export const walletBinding = itemKind({
  name: 'wallet',
  type: 'wallet',
  player: { reach: { keys: ofAddress(walletKey) }, deletion: { does: 'deleted', owned: stillTheirs } },
});

export const walletNonce = itemKind({
  name: 'nonce',
  type: 'nonce',
  player: { reach: { keys: ofAddress(nonceKey) }, deletion: { does: 'deleted', owned: stillTheirs } },
});

/**
 * Every kind identity declares. The salt a deletion leaves of a zkLogin identity names no one (its key is a digest of
 * the subject). The salt of an identity (`zksalt`, which holds the subject) has no declaration: a deletion moves
 * it (zklogin.ts forgetZkSubject), and no reach finds it from a player.
 */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  playerAccount,
  playerParams,
  socialListing,
  socialBinding,
  walletBinding,
  walletNonce,
  itemKind({ name: 'zkLogin salt of a deleted identity', player: { holdsNoPlayerData: true } }),
];
