import * as z from 'zod/mini';
import { indexBackfill } from '../platform/index-backfill.js';
import { objectOf } from '../shared/records.js';
import { merchantsOfStatusKeys } from './keys.js';
import { Merchant } from './models.js';

/**
 * Merchants: the kinds of items written before an index that `npm run admin -- backfill-indexes` gives its keys
 * (core/platform/index-backfill.ts, listed in tools/admin/index-backfills.ts). A module of its own so that
 * no function serving requests bundles them.
 */

/**
 * Merchants made before "merchants of a status" have no keys in it until their status is next set
 * (core/platform/index-backfill.ts): they get those of the status they hold, as a status change would set them.
 * Only while that status is the one read: a change meanwhile has set its own keys, which stay.
 */
export const merchantsOfStatusBackfill = indexBackfill({
  kind: 'merchants',
  match: { type: 'merchant' },
  source: z.pick(objectOf(Merchant), { id: true, status: true, create_time: true }),
  keys: (merchant) => merchantsOfStatusKeys(merchant.status, merchant),
});
