import type { PlatformDeps } from '../platform/deps.js';
import { remember } from '../platform/process-memory.js';

/**
 * A fact that never changes once true, remembered for the life of the process (a warm Lambda container, the
 * local server), so that the hot path of the reports does not re-write it on every call (a game's owner is
 * remembered by core/access/owners.ts):
 * - an open-season record written: it stays until settlement closes the season, which happens only after the
 *   season has ended, when no new report goes into it. The write is shared too: the concurrent first reports
 *   of a season in one process (a cold start, a week's or month's rollover) make one write, not one each.
 * Keys carry the table name, so deps on different tables (tests, bench) never share an entry. The sets are
 * bounded (core/platform/process-memory.ts).
 */
const openSeasons = new Map<string, Promise<void>>();

const keyOf = (deps: Pick<PlatformDeps, 'table'>, ...parts: string[]) => [deps.table, ...parts].join('\u0000');

/**
 * Runs `write` (the open-season record `sk`, or a league season's record to settle, keyed by its own partition and
 * sort key) once per process: the first caller writes, callers meanwhile wait
 * for that write, later callers return at once. A failed write is forgotten, so the next report writes again.
 */
export function openSeasonOnce(deps: Pick<PlatformDeps, 'table'>, sk: string, write: () => Promise<void>): Promise<void> {
  const key = keyOf(deps, sk);
  const known = openSeasons.get(key);
  if (known !== undefined) return known;
  const written = write();
  remember(openSeasons, key, written);
  written.catch(() => openSeasons.get(key) === written && openSeasons.delete(key));
  return written;
}
