import * as z from 'zod/mini';
import { indexBackfill } from '../platform/index-backfill.js';
import { playerItemsKeys } from '../platform/players.js';
import { objectOf } from '../shared/records.js';
import { StoredCode } from './authorization.js';
import { StoreClient } from './clients.js';
import { clientListKey } from './keys.js';
import { StoredFamily, StoredRefresh } from './grants.js';

/**
 * The partner store's clients, codes, token families and refresh tokens: the kinds of items written before an index that `npm run admin -- backfill-indexes` gives its keys
 * (core/platform/index-backfill.ts, listed in tools/admin/index-backfills.ts). A module of its own so that
 * no function serving requests bundles them.
 */

/** Clients registered before "a region's clients" get clientListKey, as registerClient gives it (core/platform/index-backfill.ts). */
export const storeClientsBackfill = indexBackfill({
  kind: 'store_clients',
  match: { type: 'store_client' },
  source: z.pick(objectOf(StoreClient), { region: true, created_at: true, client_id: true }),
  keys: clientListKey,
});

/**
 * Codes issued before the user's items index (gsi6) have no entry in it, so the user's deletion would not find
 * them (core/platform/index-backfill.ts): they get the keys accept sets.
 */
export const storeCodesBackfill = indexBackfill({
  kind: 'store_codes',
  match: { type: 'store_code' },
  source: z.pick(StoredCode, { uid: true }),
  keys: ({ uid }) => playerItemsKeys(uid, 'STORECODE'),
});

/**
 * Families and refresh tokens issued before the user's items index (gsi6) have no entry in it, so the user's
 * deletion would not find them (core/platform/index-backfill.ts): they get the keys codeGrant and issuePair set.
 */
export const storeFamiliesBackfill = indexBackfill({
  kind: 'store_families',
  match: { type: 'store_family' },
  source: z.pick(StoredFamily, { uid: true }),
  keys: ({ uid }) => playerItemsKeys(uid, 'STOREFAMILY'),
});

export const storeRefreshTokensBackfill = indexBackfill({
  kind: 'store_refresh_tokens',
  match: { type: 'store_refresh' },
  source: z.pick(StoredRefresh, { uid: true }),
  keys: ({ uid }) => playerItemsKeys(uid, 'STOREREFRESH'),
});
