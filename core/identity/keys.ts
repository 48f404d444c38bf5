import { sha256Url } from '../platform/digest.js';

/**
 * Identity's keys, built here alone (its kinds are declared in items.ts), apart from the reads and writes, so that
 * what an operation reads first can be named (core/http/operation.ts FirstReads) without loading the table's client.
 */

export const USER_PREFIX = 'USER#';
/** A player's own partition: their account, parameters, social listing, balances, ledger and heroes. */
export const userPartition = (uid: string) => `${USER_PREFIX}${uid}`;
/** The player a partition of the table is the own partition of; none for any other partition. */
export const uidOfPartition = (pk: string) => (pk.startsWith(USER_PREFIX) ? pk.slice(USER_PREFIX.length) : undefined);

/** "account of a user" (core/identity/accounts.ts). */
export const ACCOUNT_SORT = 'ACCOUNT';
export const userKey = (uid: string) => ({ pk: userPartition(uid), sk: ACCOUNT_SORT });

/** "parameters of a user" (core/identity/params.ts). */
export const PARAMS_SORT = 'PARAMS';
export const paramsKey = (uid: string) => ({ pk: userPartition(uid), sk: PARAMS_SORT });

/** "user of an address": makes an address unique. */
export const WALLET_PREFIX = 'WALLET#';
export const WALLET_SORT = 'WALLET';
export const walletKey = (address: string) => ({ pk: `${WALLET_PREFIX}${address}`, sk: WALLET_SORT });

/** "live nonce of an address" (core/identity/wallet.ts). */
export const NONCE_PREFIX = 'NONCE#';
export const NONCE_SORT = 'NONCE';
export const nonceKey = (address: string) => ({ pk: `${NONCE_PREFIX}${address}`, sk: NONCE_SORT });

/** An OAuth identity, as zkLogin keys its salt (core/identity/zklogin.ts). */
interface OAuthIdentity {
  iss: string;
  aud: string;
  sub: string;
}

/** The partition prefix and sort key of a zkLogin salt, named or hidden. */
export const ZKSALT_PREFIX = 'ZKSALT#';
export const SALT_SORT = 'SALT';

/** "salt of an identity" (core/identity/zklogin.ts): pk `ZKSALT#<iss>#<aud>#<sub>`, sk `SALT`. */
export const saltKey = (token: OAuthIdentity) => ({ pk: `${ZKSALT_PREFIX}${token.iss}#${token.aud}#${token.sub}`, sk: SALT_SORT });
/**
 * "salt of a deleted identity": pk `ZKSALT#<SHA-256 of [iss, aud, sub] as JSON, Base64url>`, sk `SALT`. Joined as a
 * JSON array, so no two identities give one text (a `#` inside iss, aud or sub could, joined by `#`).
 */
export const hiddenSaltKey = (token: OAuthIdentity) => ({
  pk: `${ZKSALT_PREFIX}${sha256Url(JSON.stringify([token.iss, token.aud, token.sub]))}`,
  sk: SALT_SORT,
});

/**
 * The partition prefix of "user of a social account", and the sort key prefix of "social accounts of a user" in the
 * user's partition: a listing's sort key is its binding's partition.
 */
export const SOCIAL_PREFIX = 'SOCIAL#';
export const SOCIAL_SORT = 'SOCIAL';

/** "user of a social account" (core/identity/social.ts): makes the binding unique. */
export const socialKey = (provider: string, socialId: string) => ({ pk: `${SOCIAL_PREFIX}${provider}#${socialId}`, sk: SOCIAL_SORT });

/** "social accounts of a user": one listing per binding, in the user's partition. */
export const listingKey = (uid: string, provider: string, socialId: string) => ({
  pk: userPartition(uid),
  sk: `${SOCIAL_PREFIX}${provider}#${socialId}`,
});

/** The binding a listing's sort key names: the listing's sort key is the binding's partition. */
export const socialBindingKeyOfListing = (listingSortKey: string) => ({ pk: listingSortKey, sk: SOCIAL_SORT });

/** "a player's reward history entries" (gsi1; core/rewards). */
export const playerRewardsPartition = (playerId: string) => `REWARDS#${playerId}`;
