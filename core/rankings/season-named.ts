import { rankingError } from './errors.js';
import { parseSeasonRange, type Season, type SeasonTypeValue } from './seasons.js';

/** The season a (type, range) pair names; 400 naming `field` when the range is not a season of that type. */
export function seasonNamed(type: number, range: string, field: string): Season {
  const season = parseSeasonRange(type as SeasonTypeValue, range);
  if (!season) {
    const what = type === 1 ? 'a week (Monday to Sunday, UTC)' : 'a calendar month';
    throw rankingError('season.range_invalid', `${field}: ${range} is not ${what}; expected YYYY-MM-DD-MM-DD of its first and last day`);
  }
  return season;
}
