import { errorCatalogue } from '../platform/errors.js';

/** The error codes of leagues. */
export const leagueErrors = errorCatalogue({
  /** the game runs no league in its current season (none set, or its first season has not begun) */
  'league.not_running': 'NotFound',
});
export const leagueError = leagueErrors.fail;
