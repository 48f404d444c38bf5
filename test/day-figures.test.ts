import { describe, expect, it } from 'vitest';
import { figuresOfRecords } from '../core/payments/day-figures.js';
import { OrderStatus } from '../core/payments/models.js';

/**
 * What each record of the table's stream adds to the day figures (core/payments/day-figures.ts), for the records
 * the end-to-end tests of the stage overview (stage-overview.test.ts) do not make: a stranded payment credited,
 * a deletion moving a ledger to its pseudonym, an order changing without being paid, an entry with no time.
 */
const order = (status: number, at: string) => ({ pk: 'ORDER#7', sk: 'ORDER', type: 'order', status, created_at: '2031-01-01T10:00:00.000Z', updated_at: at });
const entry = (uid: string, ref: string, change: number, at = '2031-01-02T10:00:00.000Z') => ({
  pk: `USER#${uid}`,
  sk: `LEDGER#${ref}`,
  ref,
  change,
  created_at: at,
});

describe('day figures from stream records', () => {
  it("a stranded payment credited to an open order: the order paid on its day, its tickets credited on the entry's", () => {
    const days = figuresOfRecords([
      { before: order(OrderStatus.pending, '2031-01-01T10:00:00.000Z'), after: order(OrderStatus.paid, '2031-01-03T09:00:00.000Z') },
      { after: entry('u1', 'stranded#0xabc:0', 100, '2031-01-03T09:00:00.000Z') },
    ]);
    expect(Object.fromEntries(days)).toEqual({ '2031-01-03': { orders_paid: 1, tickets_credited: 100 } });
  });

  it('counts nothing for a ledger moved to a pseudonym, an order changed but not paid, a paid order changed again, debits of other kinds', () => {
    const days = figuresOfRecords([
      { after: entry('former:abc', 'minus#k', -5) },
      { after: entry('former:abc', 'order#7', 100) },
      { before: order(OrderStatus.pending, 'x'), after: order(OrderStatus.cancelled, '2031-01-03T09:00:00.000Z') },
      { before: order(OrderStatus.paid, 'x'), after: { ...order(OrderStatus.paid, '2031-01-04T09:00:00.000Z'), user_id: 'former:abc' } },
      { after: entry('u1', 'goods#12', -3) },
      { after: entry('u1', 'hero-upgrade#1#1', -3) },
      { after: entry('u1', 'refund-reversed#x', 4) },
      { before: entry('u1', 'minus#k', -5) },
    ]);
    expect(days.size).toBe(0);
  });

  it('sums a batch by day, and skips an item with no readable time', () => {
    const days = figuresOfRecords([
      { after: order(OrderStatus.pending, '2031-01-01T10:00:00.000Z') },
      { after: entry('u1', 'minus#a', -2, '2031-01-01T23:59:59.999Z') },
      { after: entry('u2', 'minus#b', -3, '2031-01-02T00:00:00.000Z') },
      { after: entry('u2', 'minus#c', -4, '2031-01-02T00:00:01.000Z') },
      { after: entry('u3', 'order#8', 100, 'not a time') },
    ]);
    expect(Object.fromEntries(days)).toEqual({ '2031-01-01': { orders_created: 1, tickets_spent: 2 }, '2031-01-02': { tickets_spent: 7 } });
  });
});
