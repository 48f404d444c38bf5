import { describe, expect, it } from 'vitest';
import { claimStateName, pastSeasons } from '../console/src/seasons.js';
import { parseSeasonRange, seasonOf } from '../core/rankings/seasons.js';

/** The past seasons the console offers: the ranges the history operations take (UTC weeks from Monday, months from the 1st). */
describe('the console past seasons', () => {
  it('lists the weeks that ended, newest first, Monday to Sunday, from any day of the week', () => {
    // Thursday 2026-11-26.
    expect(pastSeasons(1, new Date('2026-11-26T23:59:00Z'), 3).map((s) => s.range)).toEqual(['2026-11-16-11-22', '2026-11-09-11-15', '2026-11-02-11-08']);
    // On a Monday the week that just started is not past; on a Sunday it is still running.
    expect(pastSeasons(1, new Date('2026-11-23T00:00:00Z'), 1)[0]!.range).toBe('2026-11-16-11-22');
    expect(pastSeasons(1, new Date('2026-11-29T23:00:00Z'), 1)[0]!.range).toBe('2026-11-16-11-22');
    // A week across the year's end is named by its first day's year.
    expect(pastSeasons(1, new Date('2027-01-06T12:00:00Z'), 2).map((s) => s.range)).toEqual(['2026-12-28-01-03', '2026-12-21-12-27']);
  });

  it('lists the months that ended, with their last day, across a year and in a leap February', () => {
    expect(pastSeasons(2, new Date('2026-11-26T00:00:00Z'), 2).map((s) => [s.range, s.label])).toEqual([
      ['2026-10-01-10-31', '2026-10'],
      ['2026-09-01-09-30', '2026-09'],
    ]);
    expect(pastSeasons(2, new Date('2028-03-01T00:00:00Z'), 3).map((s) => s.range)).toEqual(['2028-02-01-02-29', '2028-01-01-01-31', '2027-12-01-12-31']);
  });

  it('offers exactly the seasons the service names, each the one before the last, for every day of two years', () => {
    for (let day = Date.UTC(2026, 0, 1); day < Date.UTC(2028, 0, 1); day += 86_400_000) {
      const now = new Date(day + 13 * 3_600_000);
      for (const type of [1, 2] as const) {
        let current = seasonOf(type, now);
        for (const offered of pastSeasons(type, now, 3)) {
          const previous = seasonOf(type, new Date(current.start.getTime() - 1));
          expect(offered.range, now.toISOString()).toBe(previous.range);
          expect(parseSeasonRange(type, offered.range)).toBeDefined();
          current = previous;
        }
      }
    }
  });

  it('names the claim states of a history entry', () => {
    expect([0, 1, 2, 7].map(claimStateName)).toEqual(['not claimed', 'claim signed', 'claimed on chain', 'state 7']);
  });
});
