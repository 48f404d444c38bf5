import { errorCatalogue } from '../platform/errors.js';

/** The error codes of ticket balances. */
export const ticketErrors = errorCatalogue({
  'tickets.server_needs_field': ['InvalidInput', 'a server token names the user or project a player token implies'],
  'tickets.balance_short': ['Conflict', 'the balance of the project level is less than the tickets asked for'],
});
export const ticketError = ticketErrors.fail;
