import { errorCatalogue } from '../platform/errors.js';

/** The error codes of leaderboards and the results reported to them. */
export const rankingErrors = errorCatalogue({
  /** the result id was reported already with other content */
  'ranking.result_reused': 'Conflict',
  /** the game's board shards change for its current season within seconds: report again when Retry-After says */
  'ranking.shards_changing': ['Unavailable', 'Retry-After'],
  /** the season range is not one of its kind (YYYY-MM-DD-MM-DD of its first and last day) */
  'season.range_invalid': 'InvalidInput',
});
export const rankingError = rankingErrors.fail;
