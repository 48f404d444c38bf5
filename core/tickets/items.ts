import { itemKind } from '../platform/item-kinds.js';
import { BALANCE_PREFIX, LEDGER_PREFIX } from './balances.js';

/**
 * Tickets' items that hold a player's data (core/platform/item-kinds.ts), both in the player's own partition. A
 * deletion forfeits each balance (a ledger entry of minus it, under the deletion's pseudonym) and keeps the ledger
 * pseudonymized, so every ledger still sums to its balances.
 */
export const ticketBalance = itemKind({
  name: 'tickets',
  player: { reach: { own: true, sortPrefix: BALANCE_PREFIX }, deletion: { does: 'forfeited' } },
});

export const ledgerEntry = itemKind({
  name: 'ledger',
  player: { reach: { own: true, sortPrefix: LEDGER_PREFIX }, deletion: { does: 'pseudonymized' }, export: { section: 'ledger' } },
});
