import { localConnection } from '../../tools/local/dynamo.js';
import { DayFiguresReader } from '../../tools/local/day-figures-stream.js';
import type { LocalDeps } from './local-deps.js';

const readers = new WeakMap<LocalDeps, DayFiguresReader>();

/**
 * Counts every record of the deps' table's stream not counted yet into the day figures (what the deployed day
 * figures' subscription does a few seconds after each money operation), as the local server's loop does. One
 * reader per deps, so that a record is counted once however often a test drains.
 */
export function drainDayFigures(deps: LocalDeps): Promise<number> {
  let reader = readers.get(deps);
  if (!reader) readers.set(deps, (reader = new DayFiguresReader(deps, localConnection(deps.endpoint))));
  return reader.drain();
}
