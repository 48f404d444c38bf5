import { adminOnly, consoleAuth, owns } from '../../core/http/auth.js';
import type { OperationSpec } from '../../core/http/operation.js';
import { MerchantReviewPage, MerchantReviewQuery } from '../../core/merchants/models.js';
import { StudioOrdersPage, StudioOrdersQuery } from '../../core/payments/models.js';
import { merchantToken } from './errors.js';

const cursorPaged =
  '`limit` a page (1-100, 20 by default); `next` is the cursor of the page after it (pass it as `cursor` with the same filters), null on the last. ' +
  "A cursor is opaque and good only for the caller's read with the same filters.";

/**
 * Console operations of the inner group for an operator console: a studio's recharge orders across its projects,
 * and the merchants an admin reviews. Handlers: functions/handlers/console.ts.
 */
export const innerConsoleOps = {
  merchant_orders: {
    name: 'merchant_orders',
    method: 'GET',
    path: '/merchant/orders',
    tag: 'tickets and payments',
    auth: consoleAuth([owns.own, owns.project('query.project')], { whileSuspended: true }),
    summary: "The recharge orders of the caller's projects, newest first (extra operation)",
    description:
      "Players' recharge orders of every project of the caller's merchant, or of one (`project`), newest first by creation. " +
      '`status`: `paid` (status 1), `pending` (status 0) or `all` (the default: cancelled 2 and refunded 3 too). ' +
      'Each order: its id and bill number, project, price level, price in base units (`amount_base`, an integer as decimal text) with its coin, ' +
      'the tickets it credits, status, how it was paid (`tx_type`), `created_at`, `paid_at` and the paying `tx_digest` (null until paid) and the player (`user_id`; ' +
      "a player who deleted their account shows as the deletion's pseudonym). " +
      `${cursorPaged} A page of a rare status may hold fewer than \`limit\` orders (even none) with a \`next\`: one request reads a bounded part of the list. ` +
      'Orders made before this operation existed are listed once the stage has had its one-off index pass (an operator command). A suspended merchant may still read it.',
    query: StudioOrdersQuery,
    status: 200,
    envelope: 'merchant',
    response: StudioOrdersPage,
    errors: {
      400: 'status, limit or project malformed, or cursor is not the `next` of a page of the caller’s list with the same status and project',
      ...merchantToken,
      403: "project is another merchant's",
      404: 'no such project',
    },
  },
  admin_merchants: {
    name: 'admin_merchants',
    method: 'GET',
    path: '/merchant/admin/merchants',
    tag: 'studios',
    auth: adminOnly('admins review every merchant'),
    summary: 'Merchants of one status, newest first, for review (admins; extra operation)',
    description:
      '`status`: 0 pending review (the default), 1 active, 2 suspended. Each merchant as get_merchant_info shows it, with its last status change: ' +
      '`status_reason` (null when it gave none), `status_changed_at` and `status_changed_by` (the admin account; null for changes made before these were kept). ' +
      `Newest first by creation. ${cursorPaged} Merchants created before this operation existed are listed once their status is next set, or the stage has had its one-off index pass (an operator command).`,
    query: MerchantReviewQuery,
    status: 200,
    envelope: 'merchant',
    response: MerchantReviewPage,
    errors: {
      400: 'status or limit out of range, or cursor is not the `next` of a page of the caller’s list of that status',
      ...merchantToken,
      403: 'not an admin account',
    },
  },
} as const satisfies Record<string, OperationSpec>;
