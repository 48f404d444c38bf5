import { sha256Url } from '../platform/digest.js';
import type { StoreRegion } from './regions.js';

/**
 * The partner store's keys for a store user's own items, built here alone (docs/data-model.md): the user's
 * partition `STOREUSER#<uid>` holds the user item (sk `STOREUSER`), balances (`BAL#<holding>#<code>`), ledger
 * entries (`LEDGER#<ref>`), pets (`PET#<petId>`, on the region's pet board gsi4 `PETRANK#<region>`), the adoption
 * count (`PETS`) and the feedings (`FEEDLOG#<fed at>#<id>`). A deletion moves the ledger to `STOREUSER#<pseudonym>`.
 */
export const storePartition = (uid: string) => `STOREUSER#${uid}`;
export const storeUserKey = (uid: string) => ({ pk: storePartition(uid), sk: 'STOREUSER' });

export type Holding = 'currency' | 'item';
export const BALANCE_PREFIX = 'BAL#';
export const balanceKey = (uid: string, holding: Holding, code: string) => ({ pk: storePartition(uid), sk: `${BALANCE_PREFIX}${holding}#${code}` });
export const LEDGER_PREFIX = 'LEDGER#';
export const storeLedgerKey = (uid: string, ref: string) => ({ pk: storePartition(uid), sk: `${LEDGER_PREFIX}${ref}` });

export const PET_PREFIX = 'PET#';
export const petKey = (uid: string, petId: string) => ({ pk: storePartition(uid), sk: `${PET_PREFIX}${petId}` });
export const petsCountKey = (uid: string) => ({ pk: storePartition(uid), sk: 'PETS' });
export const petBoardPartition = (region: StoreRegion) => `PETRANK#${region}`;
export const FEEDLOG_PREFIX = 'FEEDLOG#';
export const feedingKey = (uid: string, fedAt: string, feedingId: string) => ({ pk: storePartition(uid), sk: `${FEEDLOG_PREFIX}${fedAt}#${feedingId}` });

/**
 * The store's other items, each with its access pattern in the module that owns it: a partner's user's login
 * (sessions.ts), a used assertion id (assertions.ts), a pending authorization request and a code (authorization.ts),
 * a token family and a refresh token (grants.ts), a partner's grant (wallet.ts), a registered client and its place
 * in its region's list (clients.ts). Codes and refresh tokens are keyed by their digest: the table never holds one.
 */
export const loginKey = (region: StoreRegion, clientId: string, sub: string) => ({ pk: `STORELOGIN#${region}#${clientId}#${sub}`, sk: 'STORELOGIN' });
export const jtiKey = (region: StoreRegion, clientId: string, jti: string) => ({ pk: `STOREJTI#${region}#${clientId}#${jti}`, sk: 'STOREJTI' });
export const requestKey = (id: string) => ({ pk: `STOREAUTHZ#${id}`, sk: 'STOREAUTHZ' });
export const codeKey = (code: string) => ({ pk: `STORECODE#${sha256Url(code)}`, sk: 'STORECODE' });
export const familyKey = (id: string) => ({ pk: `STOREFAMILY#${id}`, sk: 'STOREFAMILY' });
export const refreshKey = (token: string) => ({ pk: `STOREREFRESH#${sha256Url(token)}`, sk: 'STOREREFRESH' });
export const grantKey = (clientId: string, reference: string) => ({ pk: `STOREGRANT#${clientId}#${reference}`, sk: 'STOREGRANT' });
export const clientKey = (region: StoreRegion, clientId: string) => ({ pk: `STORECLIENT#${region}#${clientId}`, sk: 'STORECLIENT' });
/** "a region's clients, newest first": a client's place in its region's list (gsi1, sparse). */
export const clientListPartition = (region: StoreRegion) => `STORECLIENTS#${region}`;
export const clientListKey = (client: { region: StoreRegion; created_at: string; client_id: string }) => ({
  gsi1pk: clientListPartition(client.region),
  gsi1sk: `${client.created_at}#${client.client_id}`,
});
