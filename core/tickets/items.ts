import { randomUUID } from 'node:crypto';
import { USER_PREFIX, userPartition } from '../identity/keys.js';
import { type ItemKind, itemKind, startsWith } from '../platform/item-kinds.js';
import { BALANCE_PREFIX, LEDGER_PREFIX, ledgerKey, StoredBalance, StoredLedger } from './balances.js';

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
      // The entry's key is new for each forfeit, so a balance that appears again in the same level (a credit that
      // landed during the deletion) is forfeited by a later round too, instead of failing on the first one's entry.
      entry: (balance, { pseudonym, now }) => {
        const tickets = Number(balance.balance ?? 0);
        if (tickets === 0) return undefined;
        const ref = `forfeit#${String(balance.projectName)}#${String(balance.level)}#${randomUUID()}`;
        return {
          ...ledgerKey(pseudonym, ref),
          type: 'ledger',
          uid: pseudonym,
          projectName: balance.projectName,
          level: balance.level,
          ref,
          change: -tickets,
          created_at: now.toISOString(),
        };
      },
    },
  },
});

export const ledgerEntry = itemKind({
  name: 'ledger',
  type: 'ledger',
  keys: { pk: startsWith(USER_PREFIX), sk: startsWith(LEDGER_PREFIX) },
  model: StoredLedger,
  player: { reach: { own: userPartition }, deletion: { does: 'pseudonymized' }, export: { section: 'ledger' } },
});

/** Every kind tickets declares. */
export const ITEM_KINDS: readonly ItemKind<never>[] = [ticketBalance, ledgerEntry];
