import * as z from 'zod/mini';
import { indexBackfill } from '../platform/index-backfill.js';
import { objectOf } from '../shared/records.js';
import { projectOrdersKeys, StoredOrder } from './order-keys.js';

/**
 * Pay orders: the kinds of items written before an index that `npm run admin -- backfill-indexes` gives its keys
 * (core/platform/index-backfill.ts, listed in tools/admin/index-backfills.ts). A module of its own so that
 * no function serving requests bundles them.
 */

/**
 * Orders made before the "orders of a project" index have no keys in it (core/platform/index-backfill.ts): they
 * get projectOrdersKeys, as rechargeOrder gives them. A deleted player's order, pseudonymized in place, gets them
 * too: they name no player, and its project, id and creation time are as they were.
 */
export const projectOrdersBackfill = indexBackfill({
  kind: 'orders',
  match: { type: 'order' },
  source: z.pick(objectOf(StoredOrder), { project_name: true, id: true, created_at: true }),
  keys: projectOrdersKeys,
});
