import { repeatEvery, type Loop } from '../platform/loop.js';
import type { EventHandler, IndexerDeps, TypeSummary } from './indexer.js';
import { recordedIndexerPass } from './indexer-job.js';

/**
 * The indexer in a long-running process (the local server): one pass, then a pause of `intervalMs`, then the
 * next, until stop(). What the deployed stage's scheduled function does once a minute, recorded as its runs are
 * (indexer-job.ts), so the stage overview shows the local server's runs.
 */
export type IndexerLoop = Loop;

export function startIndexerLoop(
  deps: IndexerDeps,
  options: {
    intervalMs: number;
    /** What to do with each event type's events (core/payments/indexer-handlers.ts: paymentHandlers). */
    handlers: Record<string, EventHandler>;
    /** Told each successful pass's summary (the local server may log it). */
    onPass?: (summary: Record<string, TypeSummary>) => void;
  },
): IndexerLoop {
  const { handlers } = options;
  // A failed pass (a table error, or a type the node kept failing: `indexer.pass_failed`) is recorded, then ends
  // only that pass, logged; the next, after a back-off, starts from the saved cursors. The pass always runs;
  // onPass is only told a successful one's summary.
  return repeatEvery(options.intervalMs, 'chain indexer', async (signal) => {
    const summary = await recordedIndexerPass(deps, { handlers, signal });
    options.onPass?.(summary);
  });
}
