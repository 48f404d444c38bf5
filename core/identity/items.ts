import { exactly, type ItemKind, itemKind, type PlayerRef, startsWith } from '../platform/item-kinds.js';
import type { Item } from '../platform/batch.js';
import { StoredAccount, StoredWallet } from './accounts.js';
import {
  ACCOUNT_SORT,
  NONCE_PREFIX,
  NONCE_SORT,
  nonceKey,
  PARAMS_SORT,
  SALT_SORT,
  SOCIAL_PREFIX,
  SOCIAL_SORT,
  socialBindingKeyOfListing,
  USER_PREFIX,
  userPartition,
  WALLET_PREFIX,
  WALLET_SORT,
  walletKey,
  ZKSALT_PREFIX,
} from './keys.js';
import { SavedParams, SocialBinding, StoredNonce } from './models.js';
import { SocialHolder } from './social.js';
import { StoredSalt } from './zklogin.js';

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
  keys: { pk: startsWith(USER_PREFIX), sk: exactly(ACCOUNT_SORT) },
  model: StoredAccount,
  player: { reach: { own: userPartition }, deletion: { does: 'deleted' } },
});

export const playerParams = itemKind({
  name: 'params',
  type: 'params',
  keys: { pk: startsWith(USER_PREFIX), sk: exactly(PARAMS_SORT) },
  model: SavedParams,
  player: { reach: { own: userPartition }, deletion: { does: 'deleted' } },
});

export const socialListing = itemKind({
  name: 'social binding (a user’s listing)',
  type: 'social_binding',
  keys: { pk: startsWith(USER_PREFIX), sk: startsWith(SOCIAL_PREFIX) },
  model: SocialBinding,
  player: { reach: { own: userPartition }, deletion: { does: 'deleted' } },
});

/** The binding a listing names: gone only while it is still this player's. */
export const socialBinding = itemKind({
  name: 'social binding (user of a social account)',
  type: 'social',
  keys: { pk: startsWith(SOCIAL_PREFIX), sk: exactly(SOCIAL_SORT) },
  model: SocialHolder,
  player: {
    reach: { via: socialListing, keysOf: (listing) => [socialBindingKeyOfListing(String(listing.sk))] },
    deletion: { does: 'deleted', owned: (item, uid) => item.uid === uid },
  },
});

export const walletBinding = itemKind({
  name: 'wallet',
  type: 'wallet',
  keys: { pk: startsWith(WALLET_PREFIX), sk: exactly(WALLET_SORT) },
  model: StoredWallet,
  player: { reach: { keys: ofAddress(walletKey) }, deletion: { does: 'deleted', owned: stillTheirs } },
});

export const walletNonce = itemKind({
  name: 'nonce',
  type: 'nonce',
  keys: { pk: startsWith(NONCE_PREFIX), sk: exactly(NONCE_SORT) },
  model: StoredNonce,
  player: { reach: { keys: ofAddress(nonceKey) }, deletion: { does: 'deleted', owned: stillTheirs } },
});

/**
 * The salt of a zkLogin identity, keyed by its issuer, audience and subject (the subject is the player's): no reach
 * from the player's id or address finds it, so the deletion moves it itself, with the identity its proof named.
 */
export const zkSalt = itemKind({
  name: 'zkLogin salt',
  type: 'zksalt',
  keys: { pk: startsWith(ZKSALT_PREFIX), sk: exactly(SALT_SORT) },
  model: StoredSalt,
  player: {
    ownFlow:
      'zklogin.ts forgetZkSubject, which a player’s deletion runs with the zkLogin identity its proof named, moves the salt to the key that hides the subject and deletes this item, keyed by the identity (issuer, audience, subject) that neither the player’s id nor their address leads to.',
  },
});

/**
 * The salt a deletion leaves of a zkLogin identity (hiddenSaltKey): the salt and when it was made, under a digest of
 * the identity, without a `type`. It names no one; it stays, as the address it gives holds the player's assets.
 */
export const hiddenZkSalt = itemKind({
  name: 'zkLogin salt of a deleted identity',
  keys: { pk: startsWith(ZKSALT_PREFIX), sk: exactly(SALT_SORT) },
  model: StoredSalt,
  player: { holdsNoPlayerData: true },
});

/** Every kind identity declares. */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  playerAccount,
  playerParams,
  socialListing,
  socialBinding,
  walletBinding,
  walletNonce,
  zkSalt,
  hiddenZkSalt,
];
