import { OrderStatus } from './models.js';

/**
 * Pay order keys, shared by the order operations and the vendor ones, and the one write that turns an order paid.
 * - "order by id": pk `ORDER#<id>`, sk `ORDER`;
 * - "orders of a user, newest first": gsi1pk `USER_ORDERS#<uid>`, gsi1sk zero-padded id;
 * - "paid orders of a user, newest first": sparse gsi2pk `PAID#<uid>`, gsi2sk `<paid at>#<id>`;
 * - "order a transaction paid": pk `TXUSE#<digest>`, sk `TXUSE` (a transaction pays one order).
 * - "order by its app store link": sparse gsi3pk `ORDER_LINK#<app_account_token>`, gsi3sk `ORDER` (the UUID an
 *   App Store or Google Play purchase carries back: appAccountToken, obfuscatedExternalAccountId).
 * An order's bill number is `PO` and its zero-padded id: the payment carries it, and the order is found from it.
 */
export const orderKey = (id: number) => ({ pk: `ORDER#${id}`, sk: 'ORDER' });
export const storeLinkKeys = (token: string) => ({ gsi3pk: `ORDER_LINK#${token.toLowerCase()}`, gsi3sk: 'ORDER' });

/**
 * The transaction item that turns a pending order paid by a payment: its status, the paying transaction and
 * payment record, and the sparse "paid orders" index keys. orderComplete and a stranded payment's credit differ
 * only in their condition (`condition`, over `#status` and `:pending`) and in what else they set (`also`).
 */
export function orderPaidUpdate(
  table: string,
  order: { id: number; user_id: string },
  paid: { txDigest: string; depositId: unknown; now: string },
  condition: { expression: string; also?: string; values?: Record<string, unknown> },
) {
  return {
    Update: {
      TableName: table,
      Key: orderKey(order.id),
      UpdateExpression: `SET #status = :paid, tx_digest = :tx, deposit_id = :deposit, updated_at = :now, gsi2pk = :paidPk, gsi2sk = :paidSk${condition.also ? `, ${condition.also}` : ''}`,
      ConditionExpression: condition.expression,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':paid': OrderStatus.paid,
        ':pending': OrderStatus.pending,
        ':tx': paid.txDigest,
        ':deposit': paid.depositId,
        ':now': paid.now,
        ':paidPk': `PAID#${order.user_id}`,
        ':paidSk': `${paid.now}#${order.id}`,
        ...condition.values,
      },
    },
  };
}
export const txUseKey = (digest: string) => ({ pk: `TXUSE#${digest}`, sk: 'TXUSE' });

export const billNoOf = (orderId: number) => `PO${String(orderId).padStart(10, '0')}`;

/** The order id a bill number names, or undefined for a bill number that is not an order's. */
export function orderIdOfBill(billNo: string): number | undefined {
  const match = /^PO(\d{10,})$/.exec(billNo);
  return match ? Number(match[1]) : undefined;
}
