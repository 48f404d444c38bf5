import * as z from 'zod/mini';
import { storedAmount } from '../shared/amounts.js';
import { sortableInt } from '../platform/table.js';
import { OrderStatus, PayOrder } from './models.js';
import { PROJECT_PREFIX, projectKey } from '../access/keys.js';
import { userKey } from '../identity/keys.js';

/**
 * Payments' keys, built here alone (its kinds are declared in items.ts): pay order keys, shared by the order
 * operations and the vendor ones, and the one write that turns an order paid; then, at the end, the keys of payments
 * on chain (core/payments/chain-payments.ts) and of stranded payments (core/payments/stranded.ts).
 * - "order by id": pk `ORDER#<id>`, sk `ORDER`;
 * - "orders of a user, newest first": gsi1pk `USER_ORDERS#<uid>`, gsi1sk zero-padded id;
 * - "paid orders of a user, newest first": sparse gsi2pk `PAID#<uid>`, gsi2sk `<paid at>#<id>`;
 * - "order a transaction paid": pk `TXUSE#<digest>`, sk `TXUSE` (a transaction pays one order).
 * - "order by its app store link": sparse gsi3pk `ORDER_LINK#<app_account_token>`, gsi3sk `ORDER` (the UUID an
 *   App Store or Google Play purchase carries back: appAccountToken, obfuscatedExternalAccountId).
 * - "orders of a project, newest first": gsi7pk `PROJECT_ORDERS#<project>#<s>`, gsi7sk `<created at>#<zero-padded id>`,
 *   s = id mod ORDER_SHARDS (a studio's orders list, core/payments/console-orders.ts). Set when the order is made and
 *   never changed (orders made before it get it from the index pass: orders.ts projectOrdersBackfill); it names no
 *   player, so a deletion's pseudonymizing leaves it as it is.
 * An order's bill number is `PO` and its zero-padded id: the payment carries it, and the order is found from it.
 */
export const ORDER_PREFIX = 'ORDER#';
export const ORDER_SORT = 'ORDER';
export const orderKey = (id: number) => ({ pk: `${ORDER_PREFIX}${id}`, sk: ORDER_SORT });
/** Whether a key is an order's ("order by id"), as the table's stream names items. */
export const isOrderKey = (pk: string, sk: string) => pk.startsWith(ORDER_PREFIX) && sk === ORDER_SORT;
/** "level of a project" (core/payments/projects.ts): pk `PROJECT#<name>` (the project's partition), sk `LEVEL#<zero-padded level>`. */
export const levelKey = (name: string, level: number) => ({ pk: `${PROJECT_PREFIX}${name}`, sk: `${LEVEL_PREFIX}${sortableInt(level, 8)}` });

/**
 * What rechargeOrder reads before anything else (its first reads, core/http/operation.ts FirstReads: the authorization layer's fresh read of the
 * caller's deletion mark brings them in the same request): the project, the level, the caller's account, and the
 * order `prevId` replaces.
 */
export const rechargeOrderReads = (uid: string, input: { project: string; level: number; prevId: number }) => [
  projectKey(input.project),
  levelKey(input.project, input.level),
  userKey(uid),
  ...(input.prevId >= 0 ? [orderKey(input.prevId)] : []),
];

/** What orderComplete reads first (its first reads, core/http/operation.ts FirstReads, as rechargeOrderReads): the order and the caller's account. */
export const orderCompleteReads = (uid: string, orderId: number) => [orderKey(orderId), userKey(uid)];
export const storeLinkKeys = (token: string) => ({ gsi3pk: `ORDER_LINK#${token.toLowerCase()}`, gsi3sk: 'ORDER' });

/**
 * The shards of a project's orders index. Every write of an order rewrites its index entry (the index projects
 * every attribute): about 3 per order (made, its payment seen, paid), so one partition would hold a project to
 * about 330 orders a second; 8 shards take about 2,600 (docs/performance.md "Items many requests write"). The
 * number may grow, never shrink: readers read every shard up to it, and an order stays in the shard it was made in.
 */
export const ORDER_SHARDS = 8;
/** The index partition of a user's orders ("orders of a user, newest first", gsi1). */
export const userOrdersPartition = (uid: string) => `USER_ORDERS#${uid}`;
/** The index partition of a user's paid orders ("paid orders of a user, newest first", sparse gsi2). */
export const paidOrdersPartition = (uid: string) => `PAID#${uid}`;
/** The index partition of a merchant's projects ("projects of a merchant", gsi2; core/payments/projects.ts). */
export const merchantProjectsPartition = (accountId: string) => `MERCHANT_PROJECTS#${accountId}`;
/** The sort key prefix of a project's price levels, beside the project item (levelKey). */
export const LEVEL_PREFIX = 'LEVEL#';
/** The index partition of one shard of a project's orders. */
export const projectOrdersPartition = (project: string, shard: number) => `PROJECT_ORDERS#${project}#${shard}`;
/** The "orders of a project" keys of an order: its shard from its id, its place by creation time then id. */
export const projectOrdersKeys = (order: { project_name: string; id: number; created_at: string }) => ({
  gsi7pk: projectOrdersPartition(order.project_name, order.id % ORDER_SHARDS),
  gsi7sk: `${order.created_at}#${sortableInt(order.id)}`,
});

/**
 * An order as stored ("order by id", "orders of a user", "paid orders of a user", "order by its app store link",
 * above): the contract's record plus what completing and listing it need.
 */
export const StoredOrder = z.lazy(() =>
  z.extend(z.omit(PayOrder, { amount: true, amount_base: true, app_account_token: true }), {
    /** The order's app store link (a UUID); absent on orders made before links existed. */
    app_account_token: z.optional(z.string()),
    /** The level's store products when the order was made (as its price is): what a store purchase must buy. */
    apple_product_id: z.optional(z.string()),
    google_product_id: z.optional(z.string()),
    /** The store product a store purchase paid it with (core/app-stores/complete.ts). */
    store_product: z.optional(z.string()),
    /** A store refund (core/app-stores/refunds.ts): tickets taken back, and those already spent (status 3), when; and when a refund was reversed. */
    refund_taken: z.optional(z.number()),
    refund_shortfall: z.optional(z.number()),
    refunded_at: z.optional(z.string()),
    refund_reversed_at: z.optional(z.string()),
    /** The price in base units: a DynamoDB number, exact to u64 (core/shared/amounts.ts). */
    amount_base: storedAmount,
    project_name: z.string(),
    receive_address: z.string(),
    /** The transaction that paid it, once paid. */
    tx_digest: z.optional(z.string()),
    /**
     * The payment on chain that matched it (`<txDigest>#<eventSeq>`), set when that payment was stored
     * (core/payments/stranded.ts): from then on the order cannot be cancelled, and only that payment completes it.
     */
    payment_seen: z.optional(z.string()),
  }),
);
export type StoredOrder = z.infer<typeof StoredOrder>;
/** A stored order item read by key or from an index, if there is one. */
export const storedOrder = (item: Record<string, unknown> | undefined): StoredOrder | undefined => item && StoredOrder.parse(item);

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
        ':paidPk': paidOrdersPartition(order.user_id),
        ':paidSk': `${paid.now}#${order.id}`,
        ...condition.values,
      },
    },
  };
}
/** The partition prefix and the sort key of a transaction's claim ("order a transaction paid"). */
export const TX_USE_PREFIX = 'TXUSE#';
export const TX_USE_SORT = 'TXUSE';
export const txUseKey = (digest: string) => ({ pk: `${TX_USE_PREFIX}${digest}`, sk: TX_USE_SORT });
/** A transaction's claim as stored (complete.ts): the order it paid. Only its absence is ever tested (a condition). */
export const StoredTxClaim = z.object({ orderId: z.number(), bill_no: z.string() });

/** The sort key prefix of a bill's payment events. */
export const PAYMENT_PREFIX = 'PAY#';
/** The partition prefix of a bill's payment events. */
export const BILL_PREFIX = 'BILL#';
/** "payment events of a bill" (core/payments/chain-payments.ts): pk `BILL#<billNo>`, sk `PAY#<txDigest>#<eventSeq>`. */
export const paymentKey = (billNo: string, txDigest: string, eventSeq: string) => ({
  pk: `${BILL_PREFIX}${billNo}`,
  sk: `${PAYMENT_PREFIX}${txDigest}#${eventSeq}`,
});
/** "a payer's payment events, newest first" (gsi2): the partition `PAYER#<address>`. */
export const payerPartition = (address: string) => `PAYER#${address}`;
/** "payment events of a transaction" (gsi1): the partition `TX#<txDigest>`. */
export const transactionPaymentsPartition = (txDigest: string) => `TX#${txDigest}`;
/** "the first payment of a bill" (sparse gsi3): the partition `BILL_PAY#<billNo>`. */
export const billFirstPaymentPartition = (billNo: string) => `BILL_PAY#${billNo}`;

/** The partition prefix and the sort key of a stranded payment. */
export const STRANDED_PREFIX = 'STRANDED#';
export const STRANDED_SORT = 'STRANDED';
/** "stranded payment by its payment" (core/payments/stranded.ts): pk `STRANDED#<txDigest>#<eventSeq>`, sk `STRANDED`. */
export const strandedKey = (txDigest: string, eventSeq: string) => ({ pk: `${STRANDED_PREFIX}${txDigest}#${eventSeq}`, sk: STRANDED_SORT });
/** The partition prefix and the sort key of a refund transaction's claim. */
export const REFUND_USE_PREFIX = 'REFUNDTX#';
export const REFUND_USE_SORT = 'REFUNDTX';
/** "refund transaction used": pk `REFUNDTX#<digest>`, sk `REFUNDTX`. */
export const refundUseKey = (digest: string) => ({ pk: `${REFUND_USE_PREFIX}${digest}`, sk: REFUND_USE_SORT });
/** A refund transaction's claim as stored (stranded.ts): the payment it refunded (`<txDigest>#<eventSeq>`), when. */
export const StoredRefundClaim = z.object({ payment: z.string(), created_at: z.string() });
/** "stranded payments of a project, newest first" (gsi1): the partition `STRANDED_OF#<project>`. */
export const strandedOfProjectPartition = (project: string) => `STRANDED_OF#${project}`;
/** "stranded payments to an address, newest first" (gsi1): the partition `STRANDED_TO#<address>`. */
export const strandedToAddressPartition = (address: string) => `STRANDED_TO#${address}`;

export const billNoOf = (orderId: number) => `PO${String(orderId).padStart(10, '0')}`;

/** The order id a bill number names, or undefined for a bill number that is not an order's. */
export function orderIdOfBill(billNo: string): number | undefined {
  const match = /^PO(\d{10,})$/.exec(billNo);
  return match ? Number(match[1]) : undefined;
}
