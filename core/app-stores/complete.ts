import type { StoresDeps } from './deps.js';
import { platformError } from '../platform/errors.js';
import { paymentError } from '../payments/errors.js';
import { storesError } from './errors.js';
import { ConcurrentChange, transactOrFailedConditions } from '../platform/transactions.js';
import { OrderStatus, TxType } from '../payments/models.js';
import { orderKey, orderPaidUpdate, storedOrder, type StoredOrder } from '../payments/order-keys.js';
import { readItems } from '../platform/batch.js';
import { findOrder } from '../payments/orders.js';
import { creditItems, creditRefusedAsGone, playerDeleted } from '../tickets/balances.js';
import { storeTxKey } from './keys.js';
import { claimOf, readClaim, type Claim, type Store } from './purchase-claims.js';

/**
 * Completing an order by an app store purchase (docs/api.md, "App Store and Google Play purchases"), whichever way
 * the purchase arrives (the client's verification, the store's notification): the order turns paid with its store's
 * tx_type, the store transaction is claimed for it, and its tickets are credited, in one DynamoDB transaction,
 * exactly like orderComplete. So:
 * - the same purchase again (a retried verification, a notification after the verification) answers the same
 *   and credits nothing more;
 * - a store transaction pays one order: naming it for a second order is 409;
 * - an order is paid once: a second purchase for a paid order is 409 (the store then refunds or it is handled
 *   by the merchant; nothing is credited twice);
 * - a purchase the store refunded or revoked before anything credited it is barred (its claim names no order):
 *   it never credits, 409.
 *
 * Keys (docs/data-model.md): the purchase's claim (core/app-stores/purchase-claims.ts), with the order it paid. Every
 * item is per-order or per-player: no shared item in the transaction.
 */

export interface StorePurchase {
  store: Store;
  /** The store's id of the purchase: Apple's transactionId, Google's orderId (or purchase token). */
  transactionId: string;
  /** The product bought, already checked against the order's level. */
  productId: string;
}

const txTypeOf = (store: Store) => (store === 'apple' ? TxType.appStore : TxType.googlePlay);

export type Completion = { order: StoredOrder; credited: boolean };

/** The order and the purchase's claim, read together (one BatchGetItem): what completing starts from. */
export async function orderAndClaim(deps: StoresDeps, orderId: number, purchase: Pick<StorePurchase, 'store' | 'transactionId'>) {
  const [order, claim] = await readItems(deps, [orderKey(orderId), storeTxKey(purchase.store, purchase.transactionId)]);
  return { order: storedOrder(order), claim: claimOf(claim) };
}

/**
 * Completes `order` by `purchase` once; answers the order as paid, and whether this call credited it. `claim` is
 * the purchase's claim as read with the order (orderAndClaim); read here when not given.
 */
export async function completeByStorePurchase(
  deps: StoresDeps,
  order: StoredOrder,
  purchase: StorePurchase,
  known?: { claim: Claim | undefined },
): Promise<Completion> {
  const claimed = known ? known.claim : await readClaim(deps, purchase.store, purchase.transactionId);
  // Read with the order: the order as read is current for the answer.
  if (claimed) return claimed.orderId === order.id && known ? { order, credited: false } : sameOrConflict(deps, claimed, order, purchase);
  if (order.status === OrderStatus.paid) throw paymentError('order.paid_by_other', `orderId: order ${order.id} is paid already, by another purchase`);
  if (order.status !== OrderStatus.pending) throw paymentError('order.not_pending', `orderId: order ${order.id} is not pending`);

  const now = deps.now().toISOString();
  const ref = `${purchase.store}:${purchase.transactionId}`;
  const items = [
    orderPaidUpdate(
      deps.table,
      order,
      { txDigest: ref, depositId: null, now },
      {
        expression: '#status = :pending',
        also: 'tx_type = :txType, store_product = :product',
        values: { ':txType': txTypeOf(purchase.store), ':product': purchase.productId },
      },
    ),
    {
      Put: {
        TableName: deps.table,
        Item: { ...storeTxKey(purchase.store, purchase.transactionId), type: 'store_tx', orderId: order.id, product_id: purchase.productId, created_at: now },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...creditItems(deps, { uid: order.user_id, projectName: order.project_name, level: order.level }, order.tickets, `order#${order.id}`),
  ];
  let failed: number[];
  try {
    failed = await transactOrFailedConditions(deps, items);
  } catch (error) {
    // Racing deliveries of one purchase kept colliding: one of them may have completed the order.
    if (!(error instanceof ConcurrentChange)) throw error;
    const claim = await readClaim(deps, purchase.store, purchase.transactionId);
    if (claim) return sameOrConflict(deps, claim, order, purchase);
    throw error;
  }
  if (failed.length === 0) {
    // The order as the update left it, as the same purchase again reads it.
    return { order: { ...order, status: OrderStatus.paid, tx_type: txTypeOf(purchase.store), tx_digest: ref, updated_at: now }, credited: true };
  }
  // Refused: the player's deletion started meanwhile, a concurrent delivery claimed the purchase (the same
  // answer), a refund barred it, or the order changed meanwhile.
  if (creditRefusedAsGone(items, failed)) throw playerDeleted('orderId');
  const claim = await readClaim(deps, purchase.store, purchase.transactionId);
  if (claim) return sameOrConflict(deps, claim, order, purchase);
  const current = await findOrder(deps, order.id);
  if (current?.status === OrderStatus.paid) throw paymentError('order.paid_by_other', `orderId: order ${order.id} is paid already, by another purchase`);
  throw platformError('data.changed_concurrently', `orderId: order ${order.id} changed meanwhile; retry`);
}

async function sameOrConflict(deps: StoresDeps, claim: Claim, order: StoredOrder, purchase: StorePurchase): Promise<Completion> {
  if (claim.barred) throw barredPurchase(purchase, claim.barred);
  if (claim.orderId !== order.id)
    throw storesError('purchase.paid_other_order', `transactionId: store transaction ${purchase.transactionId} paid another order`);
  // Orders are never deleted: the order as it is now (paid by this purchase, or refunded since).
  return { order: (await findOrder(deps, order.id)) ?? order, credited: false };
}

/** The 409 of a purchase its store took back before anything credited it. */
const barredPurchase = (purchase: StorePurchase, reason: string) =>
  storesError(
    'purchase.revoked',
    `transactionId: store transaction ${purchase.transactionId} was ${reason} by the store before it was credited; it credits nothing`,
  );
