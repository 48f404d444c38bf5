import { describe, expect, it } from 'vitest';
import { figuresOfRecords } from '../core/payments/day-figures.js';
import { OrderStatus } from '../core/payments/models.js';

/**
 * What each record of the table's stream adds to the day figures (core/payments/day-figures.ts), for the records
 * the end-to-end tests of the stage overview (stage-overview.test.ts) do not make: a stranded payment credited,
 * a deletion moving a ledger to its pseudonym, an order changing without being paid, an entry with no time, the
 * ledger entries a balance holds (core/tickets/held-ledger.ts) as each write of the balance adds or pages them out.
 */
const order = (status: number, at: string) => ({ pk: 'ORDER#7', sk: 'ORDER', type: 'order', status, created_at: '2031-01-01T10:00:00.000Z', updated_at: at });
const entry = (uid: string, ref: string, change: number, at = '2031-01-02T10:00:00.000Z') => ({
  pk: `USER#${uid}`,
  sk: `LEDGER#${ref}`,
  ref,
  change,
  created_at: at,
});
const held = (ref: string, change: number, at = '2031-01-02T10:00:00.000Z') => ({ ref, change, created_at: at });
type Held = ReturnType<typeof held>;
/** A balance item holding `entries`, as minus_tickets without an Idempotency-Key leaves it. */
const balance = (uid: string, entries: Held[] | undefined, amount = 50) => ({
  pk: `USER#${uid}`,
  sk: 'TICKETS#p#1',
  type: 'tickets',
  projectName: 'p',
  level: 1,
  balance: amount,
  ...(entries ? { entries } : {}),
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

  it('counts each minus entry a write of a balance added to those it holds, on its own day; entries held before count nothing', () => {
    const a = held('minus#a', -2, '2031-01-01T23:00:00.000Z');
    const b = held('minus#b', -3, '2031-01-02T01:00:00.000Z');
    const c = held('minus#c', -4, '2031-01-03T01:00:00.000Z');
    const days = figuresOfRecords([
      // The first deduction of a balance a credit made: it held no list before.
      { before: balance('u1', undefined, 10), after: balance('u1', [a], 8) },
      { before: balance('u1', [a], 8), after: balance('u1', [a, b], 5) },
      // Two entries added by one write (no writer does so today): each on its day.
      { before: balance('u1', [a, b], 5), after: balance('u1', [a, b, c, held('minus#d', -1, '2031-01-01T02:00:00.000Z')], 0) },
    ]);
    expect(Object.fromEntries(days)).toEqual({ '2031-01-01': { tickets_spent: 3 }, '2031-01-02': { tickets_spent: 3 }, '2031-01-03': { tickets_spent: 4 } });
  });

  it("counts a balance inserted with entries; a keyed deduction's ledger item still counts", () => {
    const days = figuresOfRecords([{ after: balance('u1', [held('minus#a', -2), held('minus#b', -3)]) }, { after: entry('u2', 'minus#server:7#key-1', -6) }]);
    expect(Object.fromEntries(days)).toEqual({ '2031-01-02': { tickets_spent: 11 } });
  });

  it('counts nothing for a page moved out of a balance, a credit or a keyed debit changing it, its removal, nor entries that are not deductions', () => {
    const sixteen = Array.from({ length: 16 }, (_, i) => held(`minus#${i}`, -1));
    const page = { ...entry('u1', 'page#minus#0', -8), type: 'ledger', projectName: 'p', level: 1, entries: sixteen.slice(0, 8) };
    const days = figuresOfRecords([
      // The page move: the balance loses its 8 oldest entries, the page that holds them is inserted.
      { before: { ...balance('u1', sixteen), pages: 0 }, after: { ...balance('u1', sixteen.slice(8)), pages: 1 } },
      { after: page },
      // A credit and a keyed debit write the balance but add no entry to it.
      { before: balance('u1', sixteen.slice(8), 50), after: balance('u1', sixteen.slice(8), 150) },
      { before: balance('u1', sixteen.slice(8), 150), after: balance('u1', sixteen.slice(8), 140) },
      { before: balance('u1', sixteen.slice(8)) },
      // Held entries of other kinds, and a balance a deletion moved to a pseudonym.
      { before: balance('u1', []), after: balance('u1', [held('goods#1', -3), held('minus#up', 3), held('minus#late', -2, 'not a time')]) },
      { after: balance('former:abc', [held('minus#x', -5)]) },
    ]);
    expect(days.size).toBe(0);
  });
});
