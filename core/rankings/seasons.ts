/**
 * Seasons (docs/api.md, "Rankings: reports and boards"): a week runs Monday 00:00 UTC to Sunday 23:59:59.999 UTC, a
 * month from the 1st 00:00 UTC to its last day. `season_type` 1 is a week, 2 a month. `season_range` is
 * `YYYY-MM-DD-MM-DD`: the first day's year, the first day's month and day, the last day's month and day (a week
 * across New Year keeps the first day's year, e.g. `2029-12-31-01-06`). Plain dates only, no import: the operator
 * console offers past seasons by the same functions (console/src/seasons.ts).
 */
export const SeasonType = { week: 1, month: 2 } as const;
export type SeasonTypeValue = (typeof SeasonType)[keyof typeof SeasonType];

export interface Season {
  type: SeasonTypeValue;
  /** First instant, inclusive. */
  start: Date;
  /** First instant of the next season, exclusive. */
  end: Date;
  range: string;
}

const DAY = 86_400_000;
const two = (n: number) => String(n).padStart(2, '0');

function rangeOf(start: Date, end: Date): string {
  const last = new Date(end.getTime() - DAY);
  return `${start.getUTCFullYear()}-${two(start.getUTCMonth() + 1)}-${two(start.getUTCDate())}-${two(last.getUTCMonth() + 1)}-${two(last.getUTCDate())}`;
}

export function weekOf(instant: Date): Season {
  const midnight = Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate());
  const sinceMonday = (new Date(midnight).getUTCDay() + 6) % 7;
  const start = new Date(midnight - sinceMonday * DAY);
  const end = new Date(start.getTime() + 7 * DAY);
  return { type: SeasonType.week, start, end, range: rangeOf(start, end) };
}

export function monthOf(instant: Date): Season {
  const start = new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), 1));
  const end = new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth() + 1, 1));
  return { type: SeasonType.month, start, end, range: rangeOf(start, end) };
}

export function seasonOf(type: SeasonTypeValue, instant: Date): Season {
  return type === SeasonType.week ? weekOf(instant) : monthOf(instant);
}

/**
 * The season a `season_range` names, or undefined when the text is not one (wrong form, not a real date, or
 * not a season's first and last day for that type).
 */
export function parseSeasonRange(type: SeasonTypeValue, range: string): Season | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})-(\d{2})-(\d{2})$/.exec(range);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const first = new Date(Date.UTC(year, month - 1, day));
  if (first.getUTCMonth() !== month - 1 || first.getUTCDate() !== day) return undefined;
  const season = seasonOf(type, first);
  return season.range === range ? season : undefined;
}

/** The season's key in the table: type and first day, e.g. `W#2026-11-16`, `M#2026-11-01`. */
export function seasonKey(season: Season): string {
  return `${season.type === SeasonType.week ? 'W' : 'M'}#${season.start.toISOString().slice(0, 10)}`;
}
