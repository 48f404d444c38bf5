import type { Deps } from '../platform/deps.js';
import { conflict } from '../platform/errors.js';
import { ConcurrentChange, transactOrFailedConditions, type TransactItem } from '../platform/transactions.js';
import { OrderStatus } from '../payments/models.js';
import { orderKey } from '../payments/order-keys.js';
import { findOrder, type StoredOrder } from '../payments/orders.js';
import { balanceOf, creditItems, debitItems } from '../tickets/balances.js';

/**
 * A store refund of a paid order (App Store REFUND and REVOKE, Google Play voided purchases) takes the order's
 * tickets back, and a reversed refund gives them back (API.md flow 4):
 * - never below zero: tickets already spent cannot be taken, so what is taken is the smaller of the order's
 *   tickets and the balance; the rest is the order's `refund_shortfall`, recorded for the merchant;
 * - the order moves to status 3 (refunded) with `refund_taken`, in the same transaction as the debit and its
 *   ledger entry, on condition that it is still paid: a refund delivered twice takes once;
 * - a reversal gives back exactly `refund_taken` and returns the order to paid, on condition it is refunded.
 * Items: the order and the player's balance and ledger only (no shared item).
 */

export type RefundOutcome = { order: StoredOrder; changed: boolean };

const ATTEMPTS = 5;

/** Takes a paid order's tickets back; `ref` names the refund (the store's notification) in the ledger. */
export async function takeBack(deps: Deps, order: StoredOrder, ref: string): Promise<RefundOutcome> {
  const target = { uid: order.user_id, projectName: order.project_name, level: order.level };
  for (let attempt = 1; ; attempt++) {
    const current = attempt === 1 ? order : await findOrder(deps, order.id);
    if (!current || current.status === OrderStatus.refunded) return { order: current ?? order, changed: false };
    if (current.status !== OrderStatus.paid) throw conflict(`order ${order.id} is not paid; nothing to take back`);
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
      if (failed.length === 0) return { order: { ...current, status: OrderStatus.refunded, refund_taken: taken, refund_shortfall: shortfall }, changed: true };
    } catch (error) {
      if (!(error instanceof ConcurrentChange)) throw error;
    }
    // The order changed (another delivery refunded it) or tickets were spent meanwhile: judge again.
    if (attempt === ATTEMPTS) throw conflict(`order ${order.id}: its balance kept changing during the refund; retry`);
  }
}

/** Gives back what a refund took, returning the order to paid; `ref` names the reversal in the ledger. */
export async function giveBack(deps: Deps, order: StoredOrder, ref: string): Promise<RefundOutcome> {
  if (order.status !== OrderStatus.refunded) return { order, changed: false };
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
  // Another delivery reversed it first.
  return { order: (await findOrder(deps, order.id)) ?? order, changed: false };
}

/** What a store's refund notification did, for its record: outcome, why, and the order. */
export interface RefundEffect {
  outcome: 'refunded' | 'already_refunded' | 'refund_reversed' | 'not_refunded' | 'unmatched';
  detail?: string;
  orderId: number | null;
}

/**
 * A store's refund (or its reversal) of the purchase claimed by `orderId` (undefined: no order was paid by it),
 * as both stores' notifications handle it: unmatched when there is no such paid or refunded order, else
 * takeBack or giveBack once. `what` names the purchase in the detail; `ref` the notification in the ledger.
 */
export async function refundByStore(deps: Deps, orderId: number | undefined, what: string, ref: string, reverse = false): Promise<RefundEffect> {
  const order = orderId === undefined ? undefined : await findOrder(deps, orderId);
  if (!order) return { outcome: 'unmatched', detail: `no order was paid by ${what}`, orderId: null };
  if (order.status !== OrderStatus.paid && order.status !== OrderStatus.refunded) {
    return { outcome: 'unmatched', detail: `order ${order.id} is neither paid nor refunded`, orderId: order.id };
  }
  if (reverse) {
    const { changed } = await giveBack(deps, order, ref);
    return { outcome: changed ? 'refund_reversed' : 'not_refunded', orderId: order.id };
  }
  const { changed, order: after } = await takeBack(deps, order, ref);
  const detail = changed && after.refund_shortfall ? `${after.refund_shortfall} of ${after.tickets} tickets were spent already` : undefined;
  return { outcome: changed ? 'refunded' : 'already_refunded', ...(detail ? { detail } : {}), orderId: order.id };
}

