import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { z } from 'zod/mini';
import { paymentsOfTransaction } from '../chain/payments.js';
import { toAccountRecord, userKey } from '../identity/accounts.js';
import type { AccountRecord } from '../identity/models.js';
import type { Deps } from '../platform/deps.js';
import { conflict, notFound } from '../platform/errors.js';
import { transactOrFailedConditions } from '../platform/transactions.js';
import { creditItems } from '../tickets/balances.js';
import { OrderStatus, type OrderCompleteBody } from './models.js';
import { orderKey, txUseKey } from './order-keys.js';
import { findOrder, type StoredOrder } from './orders.js';

/**
 * user/orderComplete (API.md flow 3). Completes the caller's pending order when a payment event of
 * `transactionId` paid its bill number, its amount, to its project's address. The order turns paid, the
 * transaction is claimed for it and the tickets are credited in one transaction, so that:
 * - a repeated call with the same transaction answers the same and credits nothing more;
 * - another order cannot reuse the transaction (409);
 * - concurrent calls credit once.
 * Answers the caller's Account/wallet record.
 */
export async function completeOrder(deps: Deps, uid: string, input: z.infer<typeof OrderCompleteBody>): Promise<AccountRecord> {
  const { orderId, transactionId } = input;
  const read = await deps.db.send(
    new BatchGetCommand({ RequestItems: { [deps.table]: { Keys: [orderKey(orderId), userKey(uid)], ConsistentRead: true } } }),
  );
  const items = read.Responses?.[deps.table] ?? [];
  const order = items.find((item) => item.pk === orderKey(orderId).pk) as StoredOrder | undefined;
  const account = items.find((item) => item.pk === userKey(uid).pk);
  if (!order || order.user_id !== uid || !account) throw notFound(`orderId: the caller has no order ${orderId}`);
  const answer = toAccountRecord(account);

  if (order.status === OrderStatus.paid) return paidBy(order, transactionId, answer);
  if (order.status !== OrderStatus.pending) throw conflict(`orderId: order ${orderId} is not pending`);

  const payments = await paymentsOfTransaction(deps, transactionId);
  if (payments.length === 0) throw notFound(`transactionId: no payment found in transaction ${transactionId}`);
  const payment = payments.find((p) => p.event_type === 1 && p.bill_no === order.bill_no);
  if (!payment) throw conflict(`transactionId: the transaction pays no bill ${order.bill_no}`);
  if (BigInt(payment.amount) !== BigInt(order.amount_base)) {
    throw conflict(`transactionId: it paid ${payment.amount} base units; order ${orderId} costs ${order.amount_base}`);
  }
  if (payment.toer.toLowerCase() !== order.receive_address.toLowerCase()) {
    throw conflict(`transactionId: it paid ${payment.toer}, not the project's address`);
  }

  const now = deps.now().toISOString();
  const failed = await transactOrFailedConditions(deps, [
    {
      Update: {
        TableName: deps.table,
        Key: orderKey(orderId),
        UpdateExpression: 'SET #status = :paid, tx_digest = :tx, deposit_id = :deposit, updated_at = :now, gsi2pk = :paidPk, gsi2sk = :paidSk',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':paid': OrderStatus.paid,
          ':pending': OrderStatus.pending,
          ':tx': transactionId,
          ':deposit': payment.id,
          ':now': now,
          ':paidPk': `PAID#${uid}`,
          ':paidSk': `${now}#${orderId}`,
        },
      },
    },
    {
      Put: {
        TableName: deps.table,
        Item: { ...txUseKey(transactionId), type: 'tx_use', orderId, bill_no: order.bill_no },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...creditItems(deps, { uid, projectName: order.project_name, level: order.level }, order.tickets, `order#${orderId}`),
  ]);
  if (failed.length === 0) return answer;
  // Refused: a concurrent call completed the order (the same answer), or the transaction paid another order.
  const current = await findOrder(deps, orderId);
  if (current?.status === OrderStatus.paid) return paidBy(current, transactionId, answer);
  if (failed.includes(1)) throw conflict(`transactionId: transaction ${transactionId} completed another order`);
  throw conflict(`orderId: order ${orderId} changed meanwhile; retry`);
}

function paidBy(order: StoredOrder, transactionId: string, answer: AccountRecord): AccountRecord {
  if (order.tx_digest !== transactionId) throw conflict(`orderId: order ${order.id} was paid by another transaction`);
  return answer;
}
