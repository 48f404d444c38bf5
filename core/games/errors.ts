import { errorCatalogue } from '../platform/errors.js';

/** The error codes of games. */
export const gameErrors = errorCatalogue({
  /** a game with this code exists already */
  'game.code_taken': 'Conflict',
  /** no game has this code */
  'game.not_found': 'NotFound',
  /** no published (live) game has this code */
  'game.not_published': 'NotFound',
  /** the game belongs to another merchant */
  'game.other_merchant': 'Forbidden',
});
export const gameError = gameErrors.fail;
