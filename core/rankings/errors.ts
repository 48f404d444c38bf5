import { errorCatalogue } from '../platform/errors.js';

/** The error codes of leaderboards and the results reported to them. */
export const rankingErrors = errorCatalogue({
  'ranking.result_reused': ['Conflict', 'the result id was reported already with other content'],
});
export const rankingError = rankingErrors.fail;
