import type { JWSTransactionDecodedPayload } from '@apple/app-store-server-library';
import type { z } from 'zod/mini';
import type { StoresDeps } from './deps.js';
import { paymentError } from '../payments/errors.js';
import { storesError } from './errors.js';
import { toPayOrder } from '../payments/orders.js';
import type { StoredOrder } from '../payments/order-keys.js';
import type { PayOrder } from '../payments/models.js';
import { appStoreSettings, verifyTransaction } from './apple.js';
import { apiFailure, appleApi, appleFailure } from './apple-api.js';
import { acceptedEnvironments, type AppleSettings } from './apple-settings.js';
import { completeByStorePurchase, orderAndClaim } from './complete.js';
import type { AppleVerifyBody } from './models.js';

/**
 * app-verify-transaction (docs/api.md, "App Store and Google Play purchases"): the iOS app sends the signed
 * transaction StoreKit gave it for a purchase it started from one of the caller's pending orders (the order's
 * `app_account_token` as the purchase's appAccountToken). The transaction is verified (core/app-stores/apple.ts), matched
 * to that order (its link, the order's App Store product, a consumable of quantity 1, not revoked), and the order is
 * completed with tx_type 2 once (core/app-stores/complete.ts). Answers the order as paid. Refused purchases write
 * nothing; a purchase the store refunded or revoked before it was credited is refused (its claim bars it).
 */
export async function verifyApplePurchase(deps: StoresDeps, uid: string, input: z.infer<typeof AppleVerifyBody>): Promise<PayOrder> {
  const settings = appStoreSettings(deps);
  const signed = input.signedTransaction ?? (await transactionFromApple(deps, settings, input.transactionId!));
  const transaction = await verifyTransaction(settings, signed, input.signedTransaction ? 'signedTransaction' : 'transactionId');
  if (!transaction.transactionId || !transaction.productId)
    throw storesError('purchase.transaction_incomplete', 'signedTransaction: the transaction names no transactionId or productId');
  const purchase = { store: 'apple' as const, transactionId: transaction.transactionId, productId: transaction.productId };
  // The authorization layer checked the order is the caller's; it is read for what it sells, with the
  // purchase's claim (a retried verification answers from them).
  const { order, claim } = await orderAndClaim(deps, input.orderId, purchase);
  if (!order || order.user_id !== uid) throw paymentError('order.not_found', `orderId: the caller has no order ${input.orderId}`);
  // A retried verification answers the order as it is now, whatever Apple says of the purchase since.
  if (claim?.orderId === order.id) return toPayOrder(order);
  assertBuys(transaction, order);
  const { order: paid } = await completeByStorePurchase(deps, order, purchase, { claim });
  return toPayOrder(paid);
}

/** The transaction is the purchase of this order: its link, its product, one consumable, not taken back. */
export function assertBuys(transaction: JWSTransactionDecodedPayload, order: StoredOrder) {
  const field = 'signedTransaction';
  if (!transaction.appAccountToken) {
    throw storesError(
      'purchase.not_for_order',
      `${field}: the purchase names no order (no appAccountToken); start it with order ${order.id}'s app_account_token`,
    );
  }
  if (transaction.appAccountToken.toLowerCase() !== order.app_account_token)
    throw storesError('purchase.not_for_order', `${field}: the purchase was made for another order than ${order.id}`);
  if (!order.apple_product_id)
    throw storesError('purchase.order_without_product', `orderId: order ${order.id} has no App Store product (its level had none when it was ordered)`);
  if (transaction.productId !== order.apple_product_id) {
    throw storesError('purchase.wrong_product', `${field}: it bought ${transaction.productId}; order ${order.id} is for ${order.apple_product_id}`);
  }
  if (transaction.type !== 'Consumable')
    throw storesError('purchase.not_consumable', `${field}: it is a ${transaction.type ?? 'purchase of unknown type'}, not a consumable`);
  if (transaction.quantity !== 1)
    throw storesError('purchase.quantity_not_one', `${field}: it bought ${transaction.quantity} at once; an order is one purchase of quantity 1`);
  if (transaction.revocationDate !== undefined) throw storesError('purchase.revoked', `${field}: Apple took the purchase back (refunded or revoked)`);
}

/**
 * The signed transaction of `transactionId`, from the App Store Server API: the stage's environments in turn
 * (Production first: Apple's advice, since a Sandbox id is unknown to Production), the first that knows it.
 * An id no environment knows is 404; Apple failing otherwise is 503.
 */
async function transactionFromApple(deps: StoresDeps, settings: AppleSettings, transactionId: string): Promise<string> {
  for (const environment of acceptedEnvironments(settings)) {
    const client = await appleApi(deps, settings, environment);
    try {
      const info = await client.getTransactionInfo(transactionId);
      if (info.signedTransactionInfo) return info.signedTransactionInfo;
    } catch (error) {
      const failure = await apiFailure(error);
      // 4040010: TransactionIdNotFoundError. Try the next environment.
      if (failure?.httpStatusCode === 404) continue;
      throw await appleFailure(`read transaction ${transactionId}`, error);
    }
  }
  throw storesError(
    'purchase.not_found',
    `transactionId: the App Store knows no transaction ${transactionId} (in ${acceptedEnvironments(settings).join(' or ')})`,
  );
}
