import { sortableInt } from '../platform/table.js';

/**
 * The merchants domain's keys, built here alone (docs/data-model.md):
 * - "console account by email": pk `ACCOUNT#<email lower-case>`, sk `ACCOUNT` (accounts.ts);
 * - "merchant of an account": pk `MERCHANT#<accountId>`, sk `MERCHANT`; "merchant by integer id": gsi1pk
 *   `MERCHANT_ID#<id>`, gsi1sk `MERCHANT`; "merchants of a status, newest first": gsi2pk `MERCHANTS#<status>`, gsi2sk
 *   `<create_time>#<zero-padded id>` (merchants.ts, review.ts);
 * - "a merchant's games, newest first": gsi1pk `MERCHANT_GAMES#<accountId>` on the game items, which the games
 *   domain writes; here, below games, because a merchant's status change reads it to show or hide them;
 * - the login throttle: pk `LOGINTHROTTLE#<email>` with sk `SOURCE#<source>` (a pair) or `WINDOW#<start>` (the email's
 *   hour), and pk `LOGINSOURCE#<source>`, sk `WINDOW#<start>` (the source's hour) (accounts.ts).
 */
export const ACCOUNT_PREFIX = 'ACCOUNT#';
export const ACCOUNT_SORT = 'ACCOUNT';
export const accountKey = (email: string) => ({ pk: `${ACCOUNT_PREFIX}${email.toLowerCase()}`, sk: ACCOUNT_SORT });

export const MERCHANT_PREFIX = 'MERCHANT#';
export const MERCHANT_SORT = 'MERCHANT';
export const merchantKey = (accountId: string) => ({ pk: `${MERCHANT_PREFIX}${accountId}`, sk: MERCHANT_SORT });
export const merchantIdPartition = (id: number) => `MERCHANT_ID#${id}`;
export const merchantsOfStatusPartition = (status: number) => `MERCHANTS#${status}`;
export const merchantsOfStatusKeys = (status: number, merchant: { create_time: string; id: number }) => ({
  gsi2pk: merchantsOfStatusPartition(status),
  gsi2sk: `${merchant.create_time}#${sortableInt(merchant.id)}`,
});

export const merchantGamesPartition = (accountId: string) => `MERCHANT_GAMES#${accountId}`;

/**
 * What the login throttle's partitions, an email's and a source's, begin with; and its sort keys: nothing fixed (a
 * pair's begin `SOURCE#`, a window's `WINDOW#`).
 */
export const LOGIN_THROTTLE_PREFIX = 'LOGIN';
const EMAIL_THROTTLE_PREFIX = `${LOGIN_THROTTLE_PREFIX}THROTTLE#`;
const SOURCE_THROTTLE_PREFIX = `${LOGIN_THROTTLE_PREFIX}SOURCE#`;
const PAIR_PREFIX = 'SOURCE#';
const WINDOW_PREFIX = 'WINDOW#';
export const pairKey = (email: string, source: string) => ({ pk: `${EMAIL_THROTTLE_PREFIX}${email}`, sk: `${PAIR_PREFIX}${source}` });
export const accountWindowKey = (email: string, window: string) => ({ pk: `${EMAIL_THROTTLE_PREFIX}${email}`, sk: `${WINDOW_PREFIX}${window}` });
export const sourceWindowKey = (source: string, window: string) => ({ pk: `${SOURCE_THROTTLE_PREFIX}${source}`, sk: `${WINDOW_PREFIX}${window}` });
