import { errorCatalogue } from '../platform/errors.js';

/** The error codes of ticket balances. */
export const ticketErrors = errorCatalogue({
  /** a server token names the user or project a player token implies */
  'tickets.server_needs_field': 'InvalidInput',
  /** the balance of the project level is less than the tickets asked for */
  'tickets.balance_short': 'Conflict',
  /** the player deleted their account (their balances were forfeited): nothing is credited to them */
  'tickets.player_deleted': 'Conflict',
  /** no platform player has this user id or wallet address (a studio's look-up or grant) */
  'tickets.player_unknown': 'NotFound',
  /** the project has no price level of this number (a studio's grant) */
  'tickets.level_unknown': 'NotFound',
});
export const ticketError = ticketErrors.fail;
