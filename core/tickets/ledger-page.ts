import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import { userPartition } from '../identity/keys.js';
import type { PlatformDeps } from '../platform/deps.js';
import { BALANCE_PREFIX, balanceKey, LEDGER_PREFIX, StoredLedger, type StoredBalance } from './balances.js';
import { heldLinesOf, ledgerLinesOf } from './held-ledger.js';

/**
 * "a user's ledger" as lines, a page at a time (a studio's view of a player, core/payments/player-view.ts). The
 * ledger is in three places: ledger items (`LEDGER#<ref>`), pages of entries (`LEDGER#page#…`, up to 8 lines in
 * one item) and the entries the balance items hold (held-ledger.ts). The lines come in one order:
 * 1. the entries the balances hold (the newest deductions), balance by balance in the order of their sort keys,
 *    each balance's newest first: from the balances the caller read anyway, no read of their own;
 * 2. then the ledger items backwards by sort key (so by operation, then reference: no key orders them by time),
 *    a page expanded into its entries, newest first.
 * A page of lines ends on a position: the sort key of the item it was giving lines of (a balance's, for held
 * lines) and the ref of the last line it gave of it; the next page starts with the line after it. A ref rather
 * than a count, because a balance's held entries change between pages: new ones come in at the newest end
 * (before the position: not listed, like any line written after the first page) and the oldest move into a page.
 * When the position's entry moved, every older one of its balance moved with it, and part 2 lists them in their
 * page: so a held line moved while a reader pages may be listed twice (held, then in its page), never lost.
 */

/** Where a page of lines ended: an item's sort key (`LEDGER#…`, or `TICKETS#…` for held lines) and the ref of its last line given. */
export interface LedgerPosition {
  sk: string;
  line: string;
}

/** The attributes of a cursor's key that holds a LedgerPosition. */
export const LEDGER_POSITION = ['sk', 'line'] as const;

/** Whether a cursor's key is a position a page of lines can end on (its sort key is a ledger item's or a balance's). */
export const isLedgerPosition = (key: Record<string, string | undefined>) =>
  typeof key.line === 'string' && typeof key.sk === 'string' && (key.sk.startsWith(LEDGER_PREFIX) || key.sk.startsWith(BALANCE_PREFIX));

type Balance = z.infer<typeof StoredBalance>;

/** An item's lines, newest first, under its sort key. */
interface Lines {
  sk: string;
  lines: StoredLedger[];
}

/**
 * At most `limit` lines of the user's ledger kept by `keeps` (the project a line is of), from `from` (the first
 * page when undefined), and the position to go on from (undefined at the end). `balances` are the user's balance
 * items (balancesOf), awaited only while the page lists held lines. Reads: one Query of at most `limit` ledger
 * items (each holds at least one line), one more when it starts inside an item, sent beside the balances' read
 * (so the page costs no round trip more; read in vain when the held lines fill it). Lines of other projects'
 * items are read and left out, so a page may hold fewer (even none) with a next position.
 */
export async function ledgerLinesPage(
  deps: PlatformDeps,
  uid: string,
  limit: number,
  from: LedgerPosition | undefined,
  balances: Promise<Balance[]>,
  keeps: (projectName: string) => boolean,
): Promise<{ lines: StoredLedger[]; next?: LedgerPosition }> {
  const inHeld = from === undefined || from.sk.startsWith(BALANCE_PREFIX);
  const start = inHeld ? undefined : from;
  // Sent at once, beside the balances' read: the held lines only shorten what it must fill.
  const query = deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: start === undefined ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk AND sk BETWEEN :prefix AND :start',
      ExpressionAttributeValues: { ':pk': userPartition(uid), ':prefix': LEDGER_PREFIX, ...(start === undefined ? {} : { ':start': start.sk }) },
      ScanIndexForward: false,
      // The item `start` names is read again, to go on inside it.
      Limit: start === undefined ? limit : limit + 1,
    }),
  );
  let lines: StoredLedger[] = [];
  if (inHeld) {
    const held = (await balances)
      .filter((balance) => keeps(balance.projectName))
      .map((balance) => ({ sk: balanceKey({ uid, ...balance }).sk, lines: heldLinesOf(balance).reverse() }))
      .filter((balance) => from === undefined || balance.sk >= from.sk)
      .sort((a, b) => (a.sk < b.sk ? -1 : a.sk > b.sk ? 1 : 0));
    const taken = take(held, limit, from);
    if (taken.lines.length === limit) {
      await query;
      return { lines: taken.lines, next: taken.end };
    }
    lines = taken.lines;
  }
  const need = limit - lines.length;
  const out = await query;
  const read = (out.Items ?? []).map((item) => ({ sk: String(item.sk), entry: StoredLedger.parse(item) }));
  const items = read.filter(({ entry }) => keeps(entry.projectName)).map(({ sk, entry }) => ({ sk, lines: ledgerLinesOf(entry).reverse() }));
  const taken = take(items, need, start);
  lines = [...lines, ...taken.lines];
  if (taken.more) return { lines, next: taken.end };
  const last = read.at(-1);
  if (out.LastEvaluatedKey === undefined || last === undefined) return { lines };
  // The page ends past the last item read, kept or not.
  return { lines, next: { sk: last.sk, line: ledgerLinesOf(last.entry)[0]?.ref ?? last.entry.ref } };
}

/**
 * Up to `limit` lines of `sources` in their order, from the line after `from` (its source's lines before it and
 * it left out; all of them when that line is gone); `end`, the position of the last line taken; `more`, whether
 * a line of `sources` follows it.
 */
function take(sources: Lines[], limit: number, from: LedgerPosition | undefined) {
  const lines: StoredLedger[] = [];
  let end: LedgerPosition | undefined;
  for (const source of sources) {
    let rest = source.lines;
    if (from !== undefined && source.sk === from.sk) {
      const given = rest.findIndex((line) => line.ref === from.line);
      rest = given === -1 ? [] : rest.slice(given + 1);
    }
    for (const line of rest) {
      if (lines.length === limit) return { lines, end, more: true };
      lines.push(line);
      end = { sk: source.sk, line: line.ref };
    }
  }
  return { lines, end, more: false };
}
