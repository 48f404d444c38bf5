import { seasonOf, type SeasonTypeValue } from '../../core/rankings/seasons.js';

/** A season as the history operations name it: its type (1 week, 2 month) and range `YYYY-MM-DD-MM-DD`. */
export interface Season {
  type: SeasonTypeValue;
  range: string;
  label: string;
}

/** The `count` seasons of `type` that ended before `now`, newest first, named as the service names them. */
export function pastSeasons(type: SeasonTypeValue, now: Date, count: number): Season[] {
  const seasons: Season[] = [];
  let current = seasonOf(type, now);
  for (let k = 0; k < count; k++) {
    current = seasonOf(type, new Date(current.start.getTime() - 1));
    const first = current.start.toISOString();
    seasons.push({ type, range: current.range, label: type === 1 ? `Week of ${first.slice(0, 10)}` : first.slice(0, 7) });
  }
  return seasons;
}

/** A history entry's claim state, as a studio reads it. */
export const claimStateName = (status: number) => ['not claimed', 'claim signed', 'claimed on chain'][status] ?? `state ${status}`;
