import { addToDay, type DayCounts } from '../platform/day-stats.js';
import type { PlatformDeps } from '../platform/deps.js';
import { isPseudonym } from '../platform/players.js';
import { type ItemChange, itemChangeOf, type StreamImages } from '../platform/stream-records.js';
import { OrderStatus } from './models.js';
import { isOrderKey, ORDER_PREFIX } from './order-keys.js';
import { uidOfPartition } from '../identity/keys.js';
import { LEDGER_PREFIX } from '../tickets/balances.js';

/**
 * The stage overview's day figures (core/platform/day-stats.ts), counted from the table's stream instead of on the
 * money operations' paths. Each figure is read off the item whose write is the event, on the day that item gives:
 * - orders_created: a pay order inserted (pk `ORDER#<id>`, sk `ORDER`), on its `created_at`;
 * - orders_paid: a pay order changed from another status to paid (a chain payment, an App Store or Google Play
 *   purchase, a stranded payment credited to it), on its `updated_at`;
 * - tickets_credited: a ledger entry inserted for a paid order's tickets (ref `order#…`, or `stranded#…` for a
 *   stranded payment credited), its change, on its `created_at`;
 * - tickets_spent: a ledger entry inserted by minus_tickets (ref `minus#…`), minus its change, on its `created_at`.
 * Ledger entries a deletion moves to a pseudonym (core/platform/erase-round.ts) are inserted again there: not counted.
 */

/**
 * Which records the day figures' consumer is given: pay orders' (any change) and ledger entries' (inserts). Deployed,
 * these are the subscription's event filters (infra/day-figures.ts); locally, the server's reader applies
 * passesMoneyFilter, the same rule on the keys alone.
 */
export const moneyRecordsFilters = [
  { dynamodb: { Keys: { pk: { S: [{ prefix: ORDER_PREFIX }] }, sk: { S: ['ORDER'] } } } },
  { eventName: ['INSERT'], dynamodb: { Keys: { sk: { S: [{ prefix: LEDGER_PREFIX }] } } } },
];

/** Whether a record passes moneyRecordsFilters, judged on its keys (and whether it is an insert) as Lambda judges it. */
export function passesMoneyFilter(record: { eventName?: string; dynamodb?: Pick<StreamImages, 'Keys'> }): boolean {
  const pk = record.dynamodb?.Keys?.pk?.S ?? '';
  const sk = record.dynamodb?.Keys?.sk?.S ?? '';
  return isOrderKey(pk, sk) || (record.eventName === 'INSERT' && sk.startsWith(LEDGER_PREFIX));
}

/** The UTC day of an item's ISO time attribute, or undefined when it has none. */
const dayOf = (value: unknown) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? value.slice(0, 10) : undefined);

function figuresOfChange({ before, after }: ItemChange): { day: string; counts: Partial<DayCounts> } | undefined {
  if (!after) return undefined;
  const pk = String(after.pk ?? '');
  const sk = String(after.sk ?? '');
  if (isOrderKey(pk, sk)) {
    if (!before) {
      const day = dayOf(after.created_at);
      return day ? { day, counts: { orders_created: 1 } } : undefined;
    }
    const paidNow = after.status === OrderStatus.paid && before.status !== OrderStatus.paid;
    const day = dayOf(after.updated_at);
    return paidNow && day ? { day, counts: { orders_paid: 1 } } : undefined;
  }
  const uid = uidOfPartition(pk);
  if (before || !sk.startsWith(LEDGER_PREFIX) || uid === undefined || isPseudonym(uid)) return undefined;
  const ref = String(after.ref ?? '');
  const change = Number(after.change);
  const day = dayOf(after.created_at);
  if (!day || !Number.isSafeInteger(change)) return undefined;
  if ((ref.startsWith('order#') || ref.startsWith('stranded#')) && change > 0) return { day, counts: { tickets_credited: change } };
  if (ref.startsWith('minus#') && change < 0) return { day, counts: { tickets_spent: -change } };
  return undefined;
}

/** The figures a batch of records adds, by day. */
export function figuresOfRecords(records: readonly ItemChange[]): Map<string, Partial<DayCounts>> {
  const days = new Map<string, Partial<DayCounts>>();
  for (const record of records) {
    const found = figuresOfChange(record);
    if (!found) continue;
    const sum = days.get(found.day) ?? {};
    for (const [figure, amount] of Object.entries(found.counts) as [keyof DayCounts, number][]) sum[figure] = (sum[figure] ?? 0) + amount;
    days.set(found.day, sum);
  }
  return days;
}

/**
 * Counts a batch of the stream's records (those moneyRecordsFilters passes) into the day figures: one UpdateItem per
 * day the batch touches, in parallel. Answers the days written. Throws when a write fails, so the batch is retried.
 */
export async function countDayFigures(deps: Pick<PlatformDeps, 'db' | 'table'>, records: readonly StreamImages[]): Promise<number> {
  const days = figuresOfRecords(records.map(itemChangeOf));
  await Promise.all([...days].map(([day, counts]) => addToDay(deps, day, counts)));
  return days.size;
}
