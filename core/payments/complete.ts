import type { z } from 'zod/mini';
import { paymentsOfTransaction } from '../payments/chain-payments.js';
import { canonicalType } from '../chain/names.js';
import { toAccountRecord } from '../identity/accounts.js';
import type { AccountRecord } from '../identity/models.js';
import { readItems } from '../platform/batch.js';
import type { PaymentsDeps } from './deps.js';
import { platformError } from '../platform/errors.js';
import { paymentError } from './errors.js';
import { ConcurrentChange, transactOrFailedConditions } from '../platform/transactions.js';
import { creditItems, creditRefusedAsGone, playerDeleted } from '../tickets/balances.js';
import { OrderStatus, type OrderCompleteBody } from './models.js';
import { orderCompleteReads, orderPaidUpdate, storedOrder, txUseKey, type StoredOrder } from './order-keys.js';
import { findOrder } from './orders.js';

/**
 * user/orderComplete (docs/api.md, "Payments and tickets"). Completes the caller's pending order when a payment event
 * of `transactionId` paid its bill number, in its coin, its amount, to its project's address, and is the payment
 * that matched the order when it was stored (a second payment of the same order is stranded, for the merchant:
 * core/payments/stranded.ts). A payment whose coin could not be verified never completes an order. The order
 * turns paid, the transaction is claimed for it and the tickets are credited in one transaction, so that:
 * - a repeated call with the same transaction answers the same and credits nothing more;
 * - another order cannot reuse the transaction (409);
 * - concurrent calls credit once.
 * Answers the caller's Account/wallet record.
 */
export async function completeOrder(deps: PaymentsDeps, uid: string, input: z.infer<typeof OrderCompleteBody>): Promise<AccountRecord> {
  const { orderId, transactionId } = input;
  const [orderItem, account] = await readItems(deps, orderCompleteReads(uid, orderId));
  const order = storedOrder(orderItem);
  if (!order || order.user_id !== uid || !account) throw paymentError('order.not_found', `orderId: the caller has no order ${orderId}`);
  const answer = toAccountRecord(account);

  if (order.status === OrderStatus.paid) return paidBy(order, transactionId, answer);
  if (order.status !== OrderStatus.pending) throw paymentError('order.not_pending', `orderId: order ${orderId} is not pending`);

  const payments = await paymentsOfTransaction(deps, transactionId);
  if (payments.length === 0) throw paymentError('payment.not_found', `transactionId: no payment found in transaction ${transactionId}`);
  const payment = payments.find((p) => p.event_type === 1 && p.bill_no === order.bill_no);
  if (!payment) throw paymentError('payment.wrong_bill', `transactionId: the transaction pays no bill ${order.bill_no}`);
  if (payment.coin_type === null) {
    throw paymentError('payment.coin_unverified', `transactionId: the coin it paid in could not be verified; order ${orderId} is paid in ${order.coin_type}`);
  }
  if (payment.coin_type !== canonicalType(order.coin_type)) {
    throw paymentError('payment.wrong_coin', `transactionId: it paid in ${payment.coin_type}; order ${orderId} is paid in ${order.coin_type}`);
  }
  if (BigInt(payment.amount) !== BigInt(order.amount_base)) {
    throw paymentError('payment.wrong_amount', `transactionId: it paid ${payment.amount} base units; order ${orderId} costs ${order.amount_base}`);
  }
  if (payment.toer.toLowerCase() !== order.receive_address.toLowerCase()) {
    throw paymentError('payment.wrong_recipient', `transactionId: it paid ${payment.toer}, not the project's address`);
  }
  const position = `${payment.cursor.txDigest}#${payment.cursor.eventSeq}`;
  if (!payment.matched) {
    throw paymentError(
      'payment.order_matched_elsewhere',
      `transactionId: order ${orderId} is matched to another payment; this one is kept as a stranded payment for the project's merchant`,
    );
  }

  const now = deps.now().toISOString();
  const items = [
    // Only the payment that matched the order when it was stored completes it.
    orderPaidUpdate(
      deps.table,
      { id: orderId, user_id: uid },
      { txDigest: transactionId, depositId: payment.id, now },
      { expression: '#status = :pending AND payment_seen = :position', values: { ':position': position } },
    ),
    {
      Put: {
        TableName: deps.table,
        Item: { ...txUseKey(transactionId), type: 'tx_use', orderId, bill_no: order.bill_no },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...creditItems(deps, { uid, projectName: order.project_name, level: order.level }, order.tickets, `order#${orderId}`),
  ];
  let failed: number[];
  try {
    failed = await transactOrFailedConditions(deps, items);
  } catch (error) {
    // Racing calls kept colliding (TransactionConflict): one of them may have completed the order meanwhile.
    if (!(error instanceof ConcurrentChange)) throw error;
    const current = await findOrder(deps, orderId);
    if (current?.status === OrderStatus.paid) return paidBy(current, transactionId, answer);
    throw error;
  }
  if (failed.length === 0) {
    return answer;
  }
  // Refused: the player's deletion started meanwhile, a concurrent call completed the order (the same answer), or
  // the transaction paid another order.
  if (creditRefusedAsGone(items, failed)) throw playerDeleted('orderId');
  const current = await findOrder(deps, orderId);
  if (current?.status === OrderStatus.paid) return paidBy(current, transactionId, answer);
  if (failed.includes(1)) throw paymentError('payment.completed_other_order', `transactionId: transaction ${transactionId} completed another order`);
  if (current?.status === OrderStatus.pending && current.payment_seen !== position) {
    throw paymentError(
      'payment.order_matched_elsewhere',
      `transactionId: order ${orderId} is matched to another payment; this one is kept as a stranded payment for the project's merchant`,
    );
  }
  throw platformError('data.changed_concurrently', `orderId: order ${orderId} changed meanwhile; retry`);
}

function paidBy(order: StoredOrder, transactionId: string, answer: AccountRecord): AccountRecord {
  if (order.tx_digest !== transactionId) throw paymentError('order.paid_by_other', `orderId: order ${order.id} was paid by another transaction`);
  return answer;
}
