import { requireGame } from '../games/games.js';
import type { Deps } from '../platform/deps.js';

/**
 * Facts that never change once true, remembered for the life of the process (a warm Lambda container, the
 * local server), so that the hot paths of the rankings do not re-read or re-write them on every call:
 * - a game's owner: games are never deleted and never change owner (`accountId` is not updatable), so the
 *   owner read once stays right;
 * - an open-season record written: it stays until settlement closes the season, which happens only after the
 *   season has ended, when no new report goes into it. The write is shared too: the concurrent first reports
 *   of a season in one process (a cold start, a week's or month's rollover) make one write, not one each.
 * Keys carry the table name, so deps on different tables (tests, bench) never share an entry. The sets are
 * bounded: past the bound they are emptied, which costs one read or write again, never a wrong answer.
 */
const LIMIT = 10_000;
const owners = new Map<string, Promise<string>>();
const openSeasons = new Map<string, Promise<void>>();

const keyOf = (deps: Pick<Deps, 'table'>, ...parts: string[]) => [deps.table, ...parts].join('\u0000');

/**
 * The account id owning game `code`; 404 `game_code: no game …` when there is none. One GetItem the first
 * time, shared by the calls that ask while it runs; a game not found is not remembered (it may be created).
 */
export function gameOwner(deps: Deps, code: string): Promise<string> {
  const key = keyOf(deps, code);
  const known = owners.get(key);
  if (known !== undefined) return known;
  if (owners.size >= LIMIT) owners.clear();
  const read = requireGame(deps, code).then((game) => game.accountId);
  owners.set(key, read);
  read.catch(() => owners.get(key) === read && owners.delete(key));
  return read;
}

/**
 * Runs `write` (the open-season record `sk`) once per process: the first caller writes, callers meanwhile wait
 * for that write, later callers return at once. A failed write is forgotten, so the next report writes again.
 */
export function openSeasonOnce(deps: Pick<Deps, 'table'>, sk: string, write: () => Promise<void>): Promise<void> {
  const key = keyOf(deps, sk);
  const known = openSeasons.get(key);
  if (known !== undefined) return known;
  if (openSeasons.size >= LIMIT) openSeasons.clear();
  const written = write();
  openSeasons.set(key, written);
  written.catch(() => openSeasons.get(key) === written && openSeasons.delete(key));
  return written;
}
