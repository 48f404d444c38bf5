import { heroGrantsBackfill } from '../../core/heroes/roster.js';
import { merchantsOfStatusBackfill } from '../../core/merchants/merchants.js';
import { storeCodesBackfill } from '../../core/partner-store/authorization.js';
import { storeClientsBackfill } from '../../core/partner-store/clients.js';
import { storeFamiliesBackfill, storeRefreshTokensBackfill } from '../../core/partner-store/grants.js';
import { projectOrdersBackfill } from '../../core/payments/orders.js';
import { resultsBackfill, scoresBackfill } from '../../core/rankings/reports.js';

/**
 * Every kind of item whose index keys only the writes of this version set, each described by its domain next to
 * its keys: what `npm run admin -- backfill-indexes` gives them (core/platform/index-backfill.ts; docs/data-model.md
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
