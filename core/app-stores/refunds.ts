import type { StoresDeps } from './deps.js';
import { platformError } from '../platform/errors.js';
import { isPseudonym } from '../platform/players.js';
import { storesError } from './errors.js';
import { AGAIN, retrying } from '../platform/retry.js';
import { ConcurrentChange, transactOrFailedConditions, type TransactItem } from '../platform/transactions.js';
import { OrderStatus } from '../payments/models.js';
import { orderKey, type StoredOrder } from '../payments/order-keys.js';
import { findOrder } from '../payments/orders.js';
import { balanceOf, creditItems, creditRefusedAsGone, debitItems } from '../tickets/balances.js';
import { barPurchase, liftBar, type BarReason, type Claim, type Store } from './purchase-claims.js';

/**
 * A store refund of a paid order (App Store REFUND and REVOKE, Google Play voided purchases) takes the order's
 * tickets back, and a reversed refund gives them back (docs/api.md, "App Store and Google Play purchases"):
 * - never below zero: tickets already spent cannot be taken, so what is taken is the smaller of the order's
 *   tickets and the balance; the rest is the order's `refund_shortfall`, recorded for the merchant;
 * - the order moves to status 3 (refunded) with `refund_taken`, in the same transaction as the debit and its
 *   ledger entry, on condition that it is still paid: a refund delivered twice takes once;
 * - a reversal gives back exactly `refund_taken` and returns the order to paid, on condition it is refunded.
 * Items: the order and the player's balance and ledger only (no shared item).
 */

/** `playerDeleted`: a reversal that gave nothing back, since the order's player deleted their account. */
export type RefundOutcome = { order: StoredOrder; changed: boolean; playerDeleted?: true };

const ATTEMPTS = 5;

/** Takes a paid order's tickets back; `ref` names the refund (the store's notification) in the ledger. */
export async function takeBack(deps: StoresDeps, order: StoredOrder, ref: string): Promise<RefundOutcome> {
  const target = { uid: order.user_id, projectName: order.project_name, level: order.level };
  return retrying(
    async (attempt) => {
      const current = attempt === 1 ? order : await findOrder(deps, order.id);
      if (!current || current.status === OrderStatus.refunded) return { order: current ?? order, changed: false };
      if (current.status !== OrderStatus.paid) throw storesError('order.not_paid', `order ${order.id} is not paid; nothing to take back`);
      const balance = await balanceOf(deps, target);
      const taken = Math.max(0, Math.min(balance, current.tickets));
      const shortfall = current.tickets - taken;
      const now = deps.now().toISOString();
      const items: TransactItem[] = [
        {
          Update: {
            TableName: deps.table,
            Key: orderKey(order.id),
            UpdateExpression: 'SET #status = :refunded, refund_taken = :taken, refund_shortfall = :shortfall, refunded_at = :now, updated_at = :now',
            ConditionExpression: '#status = :paid',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':refunded': OrderStatus.refunded, ':paid': OrderStatus.paid, ':taken': taken, ':shortfall': shortfall, ':now': now },
          },
        },
        ...(taken > 0 ? debitItems(deps, target, taken, `refund#${ref}`) : []),
      ];
      try {
        const failed = await transactOrFailedConditions(deps, items);
        if (failed.length === 0)
          return { order: { ...current, status: OrderStatus.refunded, refund_taken: taken, refund_shortfall: shortfall }, changed: true };
      } catch (error) {
        if (!(error instanceof ConcurrentChange)) throw error;
      }
      // The order changed (another delivery refunded it) or tickets were spent meanwhile: judge again.
      return AGAIN;
    },
    {
      attempts: ATTEMPTS,
      pause: false,
      giveUp: () => {
        throw platformError('data.changed_concurrently', `order ${order.id}: its balance kept changing during the refund; retry`);
      },
    },
  );
}

/** Gives back what a refund took, returning the order to paid; `ref` names the reversal in the ledger. */
export async function giveBack(deps: StoresDeps, order: StoredOrder, ref: string): Promise<RefundOutcome> {
  if (order.status !== OrderStatus.refunded) return { order, changed: false };
  // A deleted player's balances are forfeited: the order (kept under the deletion's pseudonym) stays refunded.
  if (isPseudonym(order.user_id)) return { order, changed: false, playerDeleted: true };
  const taken = order.refund_taken ?? 0;
  const target = { uid: order.user_id, projectName: order.project_name, level: order.level };
  const now = deps.now().toISOString();
  const items: TransactItem[] = [
    {
      Update: {
        TableName: deps.table,
        Key: orderKey(order.id),
        UpdateExpression: 'SET #status = :paid, updated_at = :now, refund_reversed_at = :now REMOVE refund_taken, refund_shortfall, refunded_at',
        ConditionExpression: '#status = :refunded',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':refunded': OrderStatus.refunded, ':paid': OrderStatus.paid, ':now': now },
      },
    },
    ...(taken > 0 ? creditItems(deps, target, taken, `refund-reversed#${ref}`) : []),
  ];
  let failed: number[];
  try {
    failed = await transactOrFailedConditions(deps, items);
  } catch (error) {
    if (!(error instanceof ConcurrentChange)) throw error;
    failed = [0];
  }
  if (failed.length === 0) {
    const { refund_taken: _t, refund_shortfall: _s, ...rest } = order;
    return { order: { ...rest, status: OrderStatus.paid }, changed: true };
  }
  if (creditRefusedAsGone(items, failed)) return { order, changed: false, playerDeleted: true };
  // Another delivery reversed it first.
  return { order: (await findOrder(deps, order.id)) ?? order, changed: false };
}

/** What a store's refund notification did, for its record: outcome, why, and the order. */
export interface RefundEffect {
  outcome: 'refunded' | 'already_refunded' | 'refund_reversed' | 'not_refunded' | 'barred' | 'already_barred' | 'bar_lifted' | 'unmatched';
  detail?: string;
  orderId: number | null;
}

/** The purchase a store's refund is about, and its claim as read (undefined: none yet). */
export interface RefundedPurchase {
  store: Store;
  transactionId: string;
  claim: Claim | undefined;
  /** Names the purchase in the detail. */
  what: string;
}

/**
 * A store's refund (`reason`) or its reversal (`reason` null) of a purchase, as both stores' notifications handle
 * it, whatever order the store's messages and the app's verification arrive in:
 * - the purchase paid an order: takeBack or giveBack once;
 * - nothing credited it yet: a refund bars it (its claim, core/app-stores/purchase-claims.ts), so no later
 *   verification or purchase message credits it (`barred`); should a credit claim it first meanwhile, that
 *   order is refunded instead. A reversal lifts the bar (`bar_lifted`);
 * `ref` names the notification in the ledger.
 */
export async function refundByStore(deps: StoresDeps, purchase: RefundedPurchase, ref: string, reason: BarReason | null): Promise<RefundEffect> {
  let claim = purchase.claim;
  if (!claim && reason) {
    const bar = await barPurchase(deps, purchase, reason, ref);
    if (bar.barred) return { outcome: 'barred', detail: `nothing credited ${purchase.what} yet; it can never be credited now`, orderId: null };
    claim = bar.claim;
  }
  if (!claim) return { outcome: 'unmatched', detail: `no order was paid by ${purchase.what}`, orderId: null };
  if (claim.barred) {
    if (reason) return { outcome: 'already_barred', detail: `${purchase.what} was ${claim.barred} before it was credited`, orderId: null };
    const lifted = await liftBar(deps, purchase);
    return lifted ? { outcome: 'bar_lifted', detail: `${purchase.what} may be credited again`, orderId: null } : { outcome: 'not_refunded', orderId: null };
  }
  return refundOrder(deps, claim.orderId!, purchase.what, ref, reason === null);
}

/** The refund or reversal of the order a purchase paid. */
async function refundOrder(deps: StoresDeps, orderId: number, what: string, ref: string, reverse: boolean): Promise<RefundEffect> {
  const order = await findOrder(deps, orderId);
  if (!order) return { outcome: 'unmatched', detail: `no order was paid by ${what}`, orderId: null };
  if (order.status !== OrderStatus.paid && order.status !== OrderStatus.refunded) {
    return { outcome: 'unmatched', detail: `order ${order.id} is neither paid nor refunded`, orderId: order.id };
  }
  if (reverse) {
    const { changed, playerDeleted } = await giveBack(deps, order, ref);
    const detail = playerDeleted ? { detail: `the player of order ${order.id} deleted their account: nothing is given back` } : {};
    return { outcome: changed ? 'refund_reversed' : 'not_refunded', ...detail, orderId: order.id };
  }
  const { changed, order: after } = await takeBack(deps, order, ref);
  const detail = changed && after.refund_shortfall ? `${after.refund_shortfall} of ${after.tickets} tickets were spent already` : undefined;
  return { outcome: changed ? 'refunded' : 'already_refunded', ...(detail ? { detail } : {}), orderId: order.id };
}
