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
