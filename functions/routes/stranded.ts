import { consoleAuth, owns } from '../../core/http/auth.js';
import type { OperationSpec } from '../../core/http/operation.js';
import { StrandedCreditBody, StrandedPage, StrandedPayment, StrandedQuery, StrandedRefundBody } from '../../core/payments/models.js';
import { merchantToken } from './errors.js';

const whatIsStranded =
  'A stranded payment is a payment on chain that matched no open order when it was indexed: late (its order was cancelled or already paid), ' +
  'in another coin than the order’s or one that could not be verified, of another amount, to another address, a second payment of an order, ' +
  "or naming no order (then it is the project's when it paid the project's receiving address). It is kept until the merchant credits it or records its refund. " +
  '`status`: 0 stranded, 1 credited, 2 refunded.';

const namesPayment = '`tx_digest` and `event_seq` name the payment (its `cursor` in the list).';

/**
 * Stranded payments (docs/api.md, "Payments and tickets"), console operations of the inner group: the project's
 * merchant lists them and settles each by an explicit, idempotent action. Handlers: functions/handlers/stranded.ts.
 */
export const innerStrandedOps = {
  stranded_list: {
    name: 'stranded_list',
    method: 'GET',
    path: '/merchant/payments/stranded',
    tag: 'tickets and payments',
    auth: consoleAuth([owns.project('query.project')], { whileSuspended: true }),
    summary: "Stranded payments of one of the caller's projects, newest first (extra operation)",
    description: `${whatIsStranded} Optionally only those of one \`status\`. Zero-based paging; \`total\` counts them all, as text (at most the 1,000 newest of each kind are read).`,
    query: StrandedQuery,
    status: 200,
    envelope: 'merchant',
    response: StrandedPage,
    errors: {
      400: 'project missing or malformed, or status, page or pageSize out of range',
      ...merchantToken,
      403: "another merchant's project",
      404: 'no such project',
    },
  },
  stranded_credit: {
    name: 'stranded_credit',
    method: 'POST',
    path: '/merchant/payments/stranded/credit',
    tag: 'tickets and payments',
    auth: consoleAuth([owns.project('body.project_name')], { movesValue: true }),
    summary: 'Credit a stranded payment: its order’s tickets to its order’s player (extra operation)',
    description:
      `${namesPayment} Credits the tickets of the order the payment's bill names to that order's player, once, whatever was paid; an order still pending with no payment is completed by it (status 1). ` +
      'The record turns credited (status 1) in the same write. Crediting again answers the same record and credits nothing more. ' +
      "When the order's player deleted their account (their balances are forfeited), nothing is credited: 409 `tickets.player_deleted`; refund the payment instead.",
    body: StrandedCreditBody,
    status: 200,
    envelope: 'merchant',
    response: StrandedPayment,
    errors: {
      400: 'a field is missing or malformed',
      ...merchantToken,
      403: "another merchant's project",
      404: 'no such project, or the project has no stranded payment with that tx_digest and event_seq',
      409: "the payment was refunded, or names no order or a deleted player's order (refund it), or changed concurrently",
    },
    codes: ['data.changed_concurrently', 'stranded.no_order', 'stranded.not_found', 'stranded.order_gone', 'stranded.refunded', 'tickets.player_deleted'],
  },
  stranded_refund: {
    name: 'stranded_refund',
    method: 'POST',
    path: '/merchant/payments/stranded/refund',
    tag: 'tickets and payments',
    auth: consoleAuth([owns.project('body.project_name')], { movesValue: true }),
    summary: 'Record that a stranded payment was refunded on chain (extra operation)',
    description:
      `${namesPayment} \`refund_digest\` is the transaction that paid the payer back; it is checked on chain: it must pay the payment's \`fromer\` at least \`amount\` in the payment's coin, and it is recorded for one payment only. ` +
      'The record turns refunded (status 2) with the digest. The same digest again answers the same record.',
    body: StrandedRefundBody,
    status: 200,
    envelope: 'merchant',
    response: StrandedPayment,
    errors: {
      400: 'a field is missing or malformed',
      ...merchantToken,
      403: "another merchant's project",
      404: 'no such project or stranded payment, or the chain has no transaction refund_digest',
      409: 'the payment was credited or refunded by another transaction, the refund transaction does not pay the payer the amount, it is the recorded refund of another payment, or the payment changed concurrently (retry)',
      503: 'no chain configured, or the chain node could not be read (Retry-After says when to try again)',
    },
    codes: [
      'chain.unconfigured',
      'chain.unreadable',
      'data.changed_concurrently',
      'stranded.credited',
      'stranded.not_found',
      'stranded.refund_mismatch',
      'stranded.refund_not_on_chain',
      'stranded.refund_used',
      'stranded.refunded',
    ],
  },
} as const satisfies Record<string, OperationSpec>;
