import { addToDay, type DayCounts } from '../platform/day-stats.js';
import type { PlatformDeps } from '../platform/deps.js';
import { isPseudonym } from '../platform/players.js';
import { type ItemChange, itemChangeOf, type StreamImages } from '../platform/stream-records.js';
import { OrderStatus } from './models.js';
import { isOrderKey, ORDER_PREFIX } from './order-keys.js';
import { uidOfPartition } from '../identity/keys.js';
import { BALANCE_PREFIX, LEDGER_PREFIX } from '../tickets/balances.js';

/**
 * The stage overview's day figures (core/platform/day-stats.ts), counted from the table's stream instead of on the
 * money operations' paths. Each figure is read off the item whose write is the event, on the day that item gives:
 * - orders_created: a pay order inserted (pk `ORDER#<id>`, sk `ORDER`), on its `created_at`;
 * - orders_paid: a pay order changed from another status to paid (a chain payment, an App Store or Google Play
 *   purchase, a stranded payment credited to it), on its `updated_at`;
 * - tickets_credited: a ledger entry inserted for a paid order's tickets (ref `order#…`, or `stranded#…` for a
 *   stranded payment credited), its change, on its `created_at`;
 * - tickets_spent: a ledger entry written by minus_tickets (ref `minus#…`), minus its change, on its `created_at`.
 *   A keyed deduction's entry is a ledger item inserted (`LEDGER#minus#<caller>#<key>`); an unkeyed one's is held
 *   in the balance item (core/tickets/held-ledger.ts): an entry of the balance's `entries` after a write whose ref
 *   was not among them before. A page of held entries moved into a ledger item (ref `page#…`) holds entries
 *   already counted when the balance took them: its insert counts nothing, nor does the balance losing them.
 * Ledger entries a deletion moves to a pseudonym (core/platform/erase-round.ts) are inserted again there: not counted.
 */

/**
 * Which records the day figures' consumer is given: pay orders' (any change), ledger entries' (inserts) and
 * balances' (inserts and changes: the entries they take). Deployed, these are the subscription's event filters
 * (infra/day-figures.ts); locally, the server's reader applies passesMoneyFilter, the same rule on the keys alone.
 */
export const moneyRecordsFilters = [
  { dynamodb: { Keys: { pk: { S: [{ prefix: ORDER_PREFIX }] }, sk: { S: ['ORDER'] } } } },
  { eventName: ['INSERT'], dynamodb: { Keys: { sk: { S: [{ prefix: LEDGER_PREFIX }] } } } },
  { eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { sk: { S: [{ prefix: BALANCE_PREFIX }] } } } },
];

/** Whether a record passes moneyRecordsFilters, judged on its keys (and its kind of write) as Lambda judges it. */
export function passesMoneyFilter(record: { eventName?: string; dynamodb?: Pick<StreamImages, 'Keys'> }): boolean {
  const pk = record.dynamodb?.Keys?.pk?.S ?? '';
  const sk = record.dynamodb?.Keys?.sk?.S ?? '';
  const written = record.eventName === 'INSERT' || record.eventName === 'MODIFY';
  return isOrderKey(pk, sk) || (record.eventName === 'INSERT' && sk.startsWith(LEDGER_PREFIX)) || (written && sk.startsWith(BALANCE_PREFIX));
}

/** The UTC day of an item's ISO time attribute, or undefined when it has none. */
const dayOf = (value: unknown) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? value.slice(0, 10) : undefined);

type Figures = { day: string; counts: Partial<DayCounts> };
const listed = (found: Figures | undefined) => (found ? [found] : []);

/** What one ledger entry written adds, wherever it is written (a ledger item, or held in a balance). */
function figuresOfEntry(entry: Record<string, unknown>): Figures | undefined {
  const ref = String(entry.ref ?? '');
  const change = Number(entry.change);
  const day = dayOf(entry.created_at);
  if (!day || !Number.isSafeInteger(change)) return undefined;
  if ((ref.startsWith('order#') || ref.startsWith('stranded#')) && change > 0) return { day, counts: { tickets_credited: change } };
  if (ref.startsWith('minus#') && change < 0) return { day, counts: { tickets_spent: -change } };
  return undefined;
}

/** The entries a balance item's image holds (none when it holds no list). */
const heldOf = (image: Record<string, unknown> | undefined): Record<string, unknown>[] =>
  Array.isArray(image?.entries) ? image.entries.filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null) : [];

function figuresOfChange({ before, after }: ItemChange): Figures[] {
  if (!after) return [];
  const pk = String(after.pk ?? '');
  const sk = String(after.sk ?? '');
  if (isOrderKey(pk, sk)) {
    if (!before) {
      const day = dayOf(after.created_at);
      return day ? [{ day, counts: { orders_created: 1 } }] : [];
    }
    const paidNow = after.status === OrderStatus.paid && before.status !== OrderStatus.paid;
    const day = dayOf(after.updated_at);
    return paidNow && day ? [{ day, counts: { orders_paid: 1 } }] : [];
  }
  const uid = uidOfPartition(pk);
  if (uid === undefined || isPseudonym(uid)) return [];
  if (sk.startsWith(BALANCE_PREFIX)) {
    // Only the entries this write added: one held before was counted when the balance took it (a page moved out
    // removes entries and adds none).
    const held = new Set(heldOf(before).map((entry) => String(entry.ref)));
    return heldOf(after).flatMap((entry) => (held.has(String(entry.ref)) ? [] : listed(figuresOfEntry(entry))));
  }
  if (before || !sk.startsWith(LEDGER_PREFIX)) return [];
  return listed(figuresOfEntry(after));
}

/** The figures a batch of records adds, by day. */
export function figuresOfRecords(records: readonly ItemChange[]): Map<string, Partial<DayCounts>> {
  const days = new Map<string, Partial<DayCounts>>();
  for (const record of records) {
    for (const found of figuresOfChange(record)) {
      const sum = days.get(found.day) ?? {};
      for (const [figure, amount] of Object.entries(found.counts) as [keyof DayCounts, number][]) sum[figure] = (sum[figure] ?? 0) + amount;
      days.set(found.day, sum);
    }
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
