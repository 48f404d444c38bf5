import { sha256Url } from '../platform/digest.js';
import type { StoreRegion } from './regions.js';

/**
 * The partner store's keys for a store user's own items, built here alone (docs/data-model.md): the user's
 * partition `STOREUSER#<uid>` holds the user item (sk `STOREUSER`), balances (`BAL#<holding>#<code>`), ledger
 * entries (`LEDGER#<ref>`), pets (`PET#<petId>`, on the region's pet board gsi4 `PETRANK#<region>`), the adoption
 * count (`PETS`) and the feedings (`FEEDLOG#<fed at>#<id>`). A deletion moves the ledger to `STOREUSER#<pseudonym>`.
 */
/** The prefix of a store user's partition, and the sort key of the user item in it. */
export const STORE_USER_PREFIX = 'STOREUSER#';
export const STORE_USER_SORT = 'STOREUSER';
export const storePartition = (uid: string) => `${STORE_USER_PREFIX}${uid}`;
export const storeUserKey = (uid: string) => ({ pk: storePartition(uid), sk: STORE_USER_SORT });

export type Holding = 'currency' | 'item';
export const BALANCE_PREFIX = 'BAL#';
export const balanceKey = (uid: string, holding: Holding, code: string) => ({ pk: storePartition(uid), sk: `${BALANCE_PREFIX}${holding}#${code}` });
export const LEDGER_PREFIX = 'LEDGER#';
export const storeLedgerKey = (uid: string, ref: string) => ({ pk: storePartition(uid), sk: `${LEDGER_PREFIX}${ref}` });

export const PET_PREFIX = 'PET#';
export const petKey = (uid: string, petId: string) => ({ pk: storePartition(uid), sk: `${PET_PREFIX}${petId}` });
export const PETS_COUNT_SORT = 'PETS';
export const petsCountKey = (uid: string) => ({ pk: storePartition(uid), sk: PETS_COUNT_SORT });
export const petBoardPartition = (region: StoreRegion) => `PETRANK#${region}`;
export const FEEDLOG_PREFIX = 'FEEDLOG#';
export const feedingKey = (uid: string, fedAt: string, feedingId: string) => ({ pk: storePartition(uid), sk: `${FEEDLOG_PREFIX}${fedAt}#${feedingId}` });

/**
 * The store's other items, each with its access pattern in the module that owns it: a partner's user's login
 * (sessions.ts), a used assertion id (assertions.ts), a pending authorization request and a code (authorization.ts),
 * a token family and a refresh token (grants.ts), a partner's grant (wallet.ts), a registered client and its place
 * in its region's list (clients.ts). Codes and refresh tokens are keyed by their digest: the table never holds one.
 * Each key's partition prefix and sort key are constants here, the shapes its kind declares (items.ts).
 */
export const LOGIN_PREFIX = 'STORELOGIN#';
export const LOGIN_SORT = 'STORELOGIN';
export const loginKey = (region: StoreRegion, clientId: string, sub: string) => ({ pk: `${LOGIN_PREFIX}${region}#${clientId}#${sub}`, sk: LOGIN_SORT });
export const JTI_PREFIX = 'STOREJTI#';
export const JTI_SORT = 'STOREJTI';
export const jtiKey = (region: StoreRegion, clientId: string, jti: string) => ({ pk: `${JTI_PREFIX}${region}#${clientId}#${jti}`, sk: JTI_SORT });
export const REQUEST_PREFIX = 'STOREAUTHZ#';
export const REQUEST_SORT = 'STOREAUTHZ';
export const requestKey = (id: string) => ({ pk: `${REQUEST_PREFIX}${id}`, sk: REQUEST_SORT });
export const CODE_PREFIX = 'STORECODE#';
export const CODE_SORT = 'STORECODE';
export const codeKey = (code: string) => ({ pk: `${CODE_PREFIX}${sha256Url(code)}`, sk: CODE_SORT });
export const FAMILY_PREFIX = 'STOREFAMILY#';
export const FAMILY_SORT = 'STOREFAMILY';
export const familyKey = (id: string) => ({ pk: `${FAMILY_PREFIX}${id}`, sk: FAMILY_SORT });
export const REFRESH_PREFIX = 'STOREREFRESH#';
export const REFRESH_SORT = 'STOREREFRESH';
export const refreshKey = (token: string) => ({ pk: `${REFRESH_PREFIX}${sha256Url(token)}`, sk: REFRESH_SORT });
export const GRANT_PREFIX = 'STOREGRANT#';
export const GRANT_SORT = 'STOREGRANT';
export const grantKey = (clientId: string, reference: string) => ({ pk: `${GRANT_PREFIX}${clientId}#${reference}`, sk: GRANT_SORT });
export const CLIENT_PREFIX = 'STORECLIENT#';
export const CLIENT_SORT = 'STORECLIENT';
export const clientKey = (region: StoreRegion, clientId: string) => ({ pk: `${CLIENT_PREFIX}${region}#${clientId}`, sk: CLIENT_SORT });
/** "a region's clients, newest first": a client's place in its region's list (gsi1, sparse). */
export const clientListPartition = (region: StoreRegion) => `STORECLIENTS#${region}`;
export const clientListKey = (client: { region: StoreRegion; created_at: string; client_id: string }) => ({
  gsi1pk: clientListPartition(client.region),
  gsi1sk: `${client.created_at}#${client.client_id}`,
});
