import type { Item } from '../platform/batch.js';
import { itemKind } from '../platform/item-kinds.js';
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
  player: {
    reach: { index: 'gsi1', partition: ({ uid }) => userOrdersPartition(uid) },
    deletion: { does: 'pseudonymized', set: (order) => (unpaid(order) ? { status: OrderStatus.cancelled } : {}) },
    export: { section: 'orders' },
  },
});

export const paymentEvent = itemKind({
  name: 'payment event',
  player: {
    reach: { index: 'gsi2', partition: ({ address }) => (address ? payerPartition(address) : undefined) },
    deletion: { does: 'pseudonymized' },
    export: { section: 'payments' },
  },
});

/** The stranded record of a payment event of the player's wallet: the payment's sort key names it. */
export const strandedPayment = itemKind({
  name: 'stranded payment',
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
