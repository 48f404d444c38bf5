/** A season as the history operations name it: its type (1 week, 2 month) and range `YYYY-MM-DD-MM-DD` (first and last day, UTC). */
export interface Season {
  type: 1 | 2;
  range: string;
  label: string;
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const rangeOf = (first: number, last: number) => `${iso(first)}-${iso(last).slice(5)}`;

/**
 * The `count` seasons of `type` that ended before `now`, newest first. Weeks start on Monday, months on the
 * 1st, both in UTC, as the boards' seasons do (docs/api.md).
 */
export function pastSeasons(type: 1 | 2, now: Date, count: number): Season[] {
  const seasons: Season[] = [];
  if (type === 1) {
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const monday = today - ((now.getUTCDay() + 6) % 7) * DAY;
    for (let k = 1; k <= count; k++) {
      const first = monday - 7 * k * DAY;
      seasons.push({ type, range: rangeOf(first, first + 6 * DAY), label: `Week of ${iso(first)}` });
    }
  } else {
    for (let k = 1; k <= count; k++) {
      const first = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - k, 1);
      const last = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - k + 1, 1) - DAY;
      seasons.push({ type, range: rangeOf(first, last), label: new Date(first).toISOString().slice(0, 7) });
    }
  }
  return seasons;
}

/** A history entry's claim state, as a studio reads it. */
export const claimStateName = (status: number) => ['not claimed', 'claim signed', 'claimed on chain'][status] ?? `state ${status}`;
