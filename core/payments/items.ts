import type { Item } from '../platform/batch.js';
import { type ItemKind, itemKind } from '../platform/item-kinds.js';
import { OrderStatus } from './models.js';
import { payerPartition, PAYMENT_PREFIX, strandedKey, userOrdersPartition } from './order-keys.js';

/**
 * Payments' items that hold a player's data (core/platform/item-kinds.ts): kept for the platform's accounting,
 * pseudonymized. A pending order no payment has reached is cancelled as it is kept: no one can complete it now, and a
 * payment that still arrives for its bill is then a stranded one its studio sees and can refund.
 */
const unpaid = (order: Item) => order.status === OrderStatus.pending && order.payment_seen === undefined;

export const payOrder = itemKind({
  name: 'pay order',
  type: 'order',
  player: {
    reach: { index: 'gsi1', partition: ({ uid }) => userOrdersPartition(uid) },
    deletion: { does: 'pseudonymized', set: (order) => (unpaid(order) ? { status: OrderStatus.cancelled } : {}) },
    export: { section: 'orders' },
  },
});

export const paymentEvent = itemKind({
  name: 'payment event',
  type: 'payment_event',
  player: {
    reach: { index: 'gsi2', partition: ({ address }) => (address ? payerPartition(address) : undefined) },
    deletion: { does: 'pseudonymized' },
    export: { section: 'payments' },
  },
});

/** The stranded record of a payment event of the player's wallet: the payment's sort key names it. */
export const strandedPayment = itemKind({
  name: 'stranded payment',
  type: 'stranded_payment',
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

/** Every kind payments declares; a project and its price levels are a studio's, and the claims name an order or a payment. */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  payOrder,
  paymentEvent,
  strandedPayment,
  itemKind({ name: 'project', type: 'project', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'price level', type: 'price_level', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'tx claim', type: 'tx_use', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'refund claim', type: 'refund_use', player: { holdsNoPlayerData: true } }),
];
