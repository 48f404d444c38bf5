import { errorCatalogue } from '../platform/errors.js';

/** The error codes of games. */
export const gameErrors = errorCatalogue({
  'game.code_taken': ['Conflict', 'a game with this code exists already'],
  'game.not_found': ['NotFound', 'no game has this code'],
  'game.not_published': ['NotFound', 'no published (live) game has this code'],
  'game.other_merchant': ['Forbidden', 'the game belongs to another merchant'],
});
export const gameError = gameErrors.fail;
