import { errorCatalogue } from '../platform/errors.js';

/** The error codes of leaderboards and the results reported to them. */
export const rankingErrors = errorCatalogue({
  /** the result id was reported already with other content */
  'ranking.result_reused': 'Conflict',
});
export const rankingError = rankingErrors.fail;
