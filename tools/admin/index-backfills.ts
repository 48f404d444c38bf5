import { heroGrantsBackfill } from '../../core/heroes/grants-backfill.js';
import { merchantsOfStatusBackfill } from '../../core/merchants/merchants-backfill.js';
import { storeClientsBackfill, storeCodesBackfill, storeFamiliesBackfill, storeRefreshTokensBackfill } from '../../core/partner-store/backfills.js';
import { projectOrdersBackfill } from '../../core/payments/orders-backfill.js';
import { resultsBackfill, scoresBackfill } from '../../core/rankings/reports-backfill.js';

/**
 * Every kind of item whose index keys only the writes of this version set, each described by its domain in a
 * module beside its keys (never bundled with the request handlers): what `npm run admin -- backfill-indexes` gives them (core/platform/index-backfill.ts; docs/data-model.md
 * "Items written before an index"). Idempotency records are not among them: they expire within 30 days.
 */
export const INDEX_BACKFILLS = [
  // "orders of a project" (gsi7): merchant_orders.
  projectOrdersBackfill,
  // "merchants of a status" (gsi2): admin_merchants.
  merchantsOfStatusBackfill,
  // "a region's clients" (gsi1): store client list.
  storeClientsBackfill,
  // "a player's items that no key leads to" (gsi6): what a player's or store user's deletion finds.
  scoresBackfill,
  resultsBackfill,
  heroGrantsBackfill,
  storeCodesBackfill,
  storeFamiliesBackfill,
  storeRefreshTokensBackfill,
];
