import { sha256Url } from '../platform/digest.js';

/**
 * Identity's keys, built here alone (its kinds are declared in items.ts), apart from the reads and writes, so that
 * what an operation reads first can be named (core/http/operation.ts FirstReads) without loading the table's client.
 */

const USER_PREFIX = 'USER#';
/** A player's own partition: their account, parameters, social listing, balances, ledger and heroes. */
export const userPartition = (uid: string) => `${USER_PREFIX}${uid}`;
/** The player a partition of the table is the own partition of; none for any other partition. */
export const uidOfPartition = (pk: string) => (pk.startsWith(USER_PREFIX) ? pk.slice(USER_PREFIX.length) : undefined);

/** "account of a user" (core/identity/accounts.ts). */
export const userKey = (uid: string) => ({ pk: userPartition(uid), sk: 'ACCOUNT' });

/** "parameters of a user" (core/identity/params.ts). */
export const paramsKey = (uid: string) => ({ pk: userPartition(uid), sk: 'PARAMS' });

/** "user of an address": makes an address unique. */
export const walletKey = (address: string) => ({ pk: `WALLET#${address}`, sk: 'WALLET' });

/** "live nonce of an address" (core/identity/wallet.ts). */
export const nonceKey = (address: string) => ({ pk: `NONCE#${address}`, sk: 'NONCE' });

/** An OAuth identity, as zkLogin keys its salt (core/identity/zklogin.ts). */
interface OAuthIdentity {
  iss: string;
  aud: string;
  sub: string;
}

/** "salt of an identity" (core/identity/zklogin.ts): pk `ZKSALT#<iss>#<aud>#<sub>`, sk `SALT`. */
export const saltKey = (token: OAuthIdentity) => ({ pk: `ZKSALT#${token.iss}#${token.aud}#${token.sub}`, sk: 'SALT' });
/**
 * "salt of a deleted identity": pk `ZKSALT#<SHA-256 of [iss, aud, sub] as JSON, Base64url>`, sk `SALT`. Joined as a
 * JSON array, so no two identities give one text (a `#` inside iss, aud or sub could, joined by `#`).
 */
export const hiddenSaltKey = (token: OAuthIdentity) => ({ pk: `ZKSALT#${sha256Url(JSON.stringify([token.iss, token.aud, token.sub]))}`, sk: 'SALT' });

/** The sort key prefix of "social accounts of a user", in the user's partition. */
export const SOCIAL_LISTING_PREFIX = 'SOCIAL#';

/** "user of a social account" (core/identity/social.ts): makes the binding unique. */
export const socialKey = (provider: string, socialId: string) => ({ pk: `SOCIAL#${provider}#${socialId}`, sk: 'SOCIAL' });

/** "social accounts of a user": one listing per binding, in the user's partition. */
export const listingKey = (uid: string, provider: string, socialId: string) => ({
  pk: userPartition(uid),
  sk: `${SOCIAL_LISTING_PREFIX}${provider}#${socialId}`,
});

/** The binding a listing's sort key names: the listing's sort key is the binding's partition. */
export const socialBindingKeyOfListing = (listingSortKey: string) => ({ pk: listingSortKey, sk: 'SOCIAL' });

/** "a player's reward history entries" (gsi1; core/rewards). */
export const playerRewardsPartition = (playerId: string) => `REWARDS#${playerId}`;
