import { repeatEvery, type Loop } from '../platform/loop.js';
import { indexEvents, type EventHandler, type IndexerDeps, type TypeSummary } from './indexer.js';

/**
 * The indexer in a long-running process (the local server): one pass, then a pause of `intervalMs`, then the
 * next, until stop(). What the deployed stage's scheduled function does once a minute.
 */
export type IndexerLoop = Loop;

export function startIndexerLoop(
  deps: IndexerDeps,
  options: {
    intervalMs: number;
    /** What to do with each event type's events (core/payments/indexer-handlers.ts: paymentHandlers). */
    handlers: Record<string, EventHandler>;
    /** Told each pass's summary (the local server may log it). */
    onPass?: (summary: Record<string, TypeSummary>) => void;
  },
): IndexerLoop {
  const { handlers } = options;
  // A failed pass (a table error) ends only that pass, logged; the next, after a back-off, starts from the saved
  // cursors. The pass always runs; onPass is only told its summary.
  return repeatEvery(options.intervalMs, 'chain indexer', async (signal) => {
    const summary = await indexEvents(deps, { handlers, signal });
    options.onPass?.(summary);
  });
}
