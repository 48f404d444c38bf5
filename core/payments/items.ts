import { PROJECT_PREFIX, PROJECT_SORT } from '../access/keys.js';
import type { Item } from '../platform/batch.js';
import { exactly, type ItemKind, itemKind, startsWith } from '../platform/item-kinds.js';
import { IndexedPayment } from './chain-payments.js';
import { OrderStatus } from './models.js';
import {
  BILL_PREFIX,
  LEVEL_PREFIX,
  ORDER_PREFIX,
  ORDER_SORT,
  payerPartition,
  PAYMENT_PREFIX,
  REFUND_USE_PREFIX,
  REFUND_USE_SORT,
  STRANDED_PREFIX,
  STRANDED_SORT,
  strandedKey,
  StoredOrder,
  StoredRefundClaim,
  StoredTxClaim,
  TX_USE_PREFIX,
  TX_USE_SORT,
  userOrdersPartition,
} from './order-keys.js';
import { StoredLevel, StoredProject } from './projects.js';
import { StoredStranded } from './stranded.js';

/**
 * Payments' items that hold a player's data (core/platform/item-kinds.ts): kept for the platform's accounting,
 * pseudonymized. A pending order no payment has reached is cancelled as it is kept: no one can complete it now, and a
 * payment that still arrives for its bill is then a stranded one its studio sees and can refund.
 */
const unpaid = (order: Item) => order.status === OrderStatus.pending && order.payment_seen === undefined;

/**
 * In "orders of a user" (gsi1), "paid orders of a user" once paid (gsi2), "order by its app store link" (gsi3; orders
 * made before links have none) and "orders of a project" (gsi7).
 */
export const payOrder = itemKind({
  name: 'pay order',
  type: 'order',
  keys: { pk: startsWith(ORDER_PREFIX), sk: exactly(ORDER_SORT) },
  indexes: ['gsi1', 'gsi2', 'gsi3', 'gsi7'],
  model: StoredOrder,
  player: {
    reach: { index: 'gsi1', partition: ({ uid }) => userOrdersPartition(uid) },
    deletion: { does: 'pseudonymized', set: (order) => (unpaid(order) ? { status: OrderStatus.cancelled } : {}) },
    export: { section: 'orders' },
  },
});

/** In "payment events of a transaction" (gsi1), "a payer's payment events" (gsi2) and "the first payment of a bill" (gsi3). */
export const paymentEvent = itemKind({
  name: 'payment event',
  type: 'payment_event',
  keys: { pk: startsWith(BILL_PREFIX), sk: startsWith(PAYMENT_PREFIX) },
  indexes: ['gsi1', 'gsi2', 'gsi3'],
  model: IndexedPayment,
  player: {
    reach: { index: 'gsi2', partition: ({ address }) => (address ? payerPartition(address) : undefined) },
    deletion: { does: 'pseudonymized' },
    export: { section: 'payments' },
  },
});

/**
 * The stranded record of a payment event of the player's wallet: the payment's sort key names it. In its project's or
 * its address's list (gsi1).
 */
export const strandedPayment = itemKind({
  name: 'stranded payment',
  type: 'stranded_payment',
  keys: { pk: startsWith(STRANDED_PREFIX), sk: exactly(STRANDED_SORT) },
  indexes: ['gsi1'],
  model: StoredStranded,
  player: {
    reach: {
      via: paymentEvent,
      keysOf: (payment) => {
        const [txDigest = '', eventSeq = ''] = String(payment.sk).slice(PAYMENT_PREFIX.length).split('#');
        return [strandedKey(txDigest, eventSeq)];
      },
    },
    deletion: { does: 'pseudonymized' },
  },
});

/**
 * Every kind payments declares; a project (in "all projects", gsi1, and "projects of a merchant", gsi2, under the key
 * access builds) and its price levels, in its partition, are a studio's, and the claims name an order or a payment.
 */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  payOrder,
  paymentEvent,
  strandedPayment,
  itemKind({
    name: 'project',
    type: 'project',
    keys: { pk: startsWith(PROJECT_PREFIX), sk: exactly(PROJECT_SORT) },
    indexes: ['gsi1', 'gsi2'],
    model: StoredProject,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'price level',
    type: 'price_level',
    keys: { pk: startsWith(PROJECT_PREFIX), sk: startsWith(LEVEL_PREFIX) },
    model: StoredLevel,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'tx claim',
    type: 'tx_use',
    keys: { pk: startsWith(TX_USE_PREFIX), sk: exactly(TX_USE_SORT) },
    model: StoredTxClaim,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'refund claim',
    type: 'refund_use',
    keys: { pk: startsWith(REFUND_USE_PREFIX), sk: exactly(REFUND_USE_SORT) },
    model: StoredRefundClaim,
    player: { holdsNoPlayerData: true },
  }),
];
