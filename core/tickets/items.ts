import { randomUUID } from 'node:crypto';
import { USER_PREFIX, userPartition } from '../identity/keys.js';
import type { Item } from '../platform/batch.js';
import { type ItemKind, itemKind, startsWith } from '../platform/item-kinds.js';
import { BALANCE_PREFIX, LEDGER_PREFIX, ledgerItem, StoredBalance, StoredLedger } from './balances.js';
import { ledgerLinesOf, pageItem } from './held-ledger.js';

/**
 * Tickets' items that hold a player's data (core/platform/item-kinds.ts), both in the player's own partition. A
 * deletion forfeits each balance (a ledger entry of minus it, under the deletion's pseudonym) and keeps the ledger
 * pseudonymized, so every ledger still sums to its balances.
 */
export const ticketBalance = itemKind({
  name: 'tickets',
  type: 'tickets',
  keys: { pk: startsWith(USER_PREFIX), sk: startsWith(BALANCE_PREFIX) },
  model: StoredBalance,
  player: {
    reach: { own: userPartition },
    deletion: {
      does: 'forfeited',
      // The forfeit entry's key is new for each forfeit, so a balance that appears again in the same level (a credit
      // that landed during the deletion) is forfeited by a later round too, instead of failing on the first one's
      // entry. The entries the balance holds (core/tickets/held-ledger.ts) go with it: they are kept as a page under
      // the pseudonym, so its ledger still sums (to zero), and the forfeit is the balance alone (privacy/forfeits.ts).
      kept: (item, { pseudonym, now }) => {
        const { projectName, level, balance, entries = [] } = StoredBalance.parse(item);
        const ref = `forfeit#${projectName}#${level}#${randomUUID()}`;
        const target = { uid: pseudonym, projectName, level };
        const forfeit = ledgerItem({ ...target, ref, change: -balance, created_at: now.toISOString() });
        return [...(entries.length > 0 ? [pageItem(target, entries)] : []), ...(balance === 0 ? [] : [forfeit])];
      },
    },
  },
});

/**
 * A ledger item: a page of entries (held-ledger.ts) is exported as its entries, each a record as an entry of its
 * own would be, so the player's export lists every line once whether it was paged or not.
 */
export const ledgerEntry = itemKind({
  name: 'ledger',
  type: 'ledger',
  keys: { pk: startsWith(USER_PREFIX), sk: startsWith(LEDGER_PREFIX) },
  model: StoredLedger,
  player: { reach: { own: userPartition }, deletion: { does: 'pseudonymized' }, export: { section: 'ledger', lines: linesOf } },
});

function linesOf(item: Item): Item[] {
  if (item.entries === undefined) return [item];
  const { entries: _lines, ...page } = item;
  return ledgerLinesOf(StoredLedger.parse(item)).map((line) => ({ ...page, ...line }));
}

/** Every kind tickets declares. */
export const ITEM_KINDS: readonly ItemKind<never>[] = [ticketBalance, ledgerEntry];
