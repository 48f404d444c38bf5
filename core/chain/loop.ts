import { logError } from '../platform/log.js';
import { indexEvents, paymentHandlers, wait, type EventHandler, type IndexerDeps, type TypeSummary } from './indexer.js';

/**
 * The indexer in a long-running process (the local server): one pass, then a pause of `intervalMs`, then the
 * next, until stop(). What the deployed stage's scheduled function does once a minute.
 */
export interface IndexerLoop {
  /** Ends the pause or the current pass between pages (after the node request in flight) and resolves when done. */
  stop(): Promise<void>;
}

export function startIndexerLoop(
  deps: IndexerDeps,
  options: {
    intervalMs: number;
    /** Default: paymentHandlers(deps). */
    handlers?: Record<string, EventHandler>;
    /** Told each pass's summary (the local server may log it). */
    onPass?: (summary: Record<string, TypeSummary>) => void;
  },
): IndexerLoop {
  const controller = new AbortController();
  const handlers = options.handlers ?? paymentHandlers(deps);

  const running = (async () => {
    while (!controller.signal.aborted) {
      try {
        options.onPass?.(await indexEvents(deps, { handlers, signal: controller.signal }));
      } catch (error) {
        // A table error ends this pass only; the next pass starts from the saved cursors.
        await logError('chain indexer: pass failed', { error: error instanceof Error ? error.message : String(error) });
      }
      await wait(options.intervalMs, controller.signal);
    }
  })();

  return {
    async stop() {
      controller.abort();
      await running;
    },
  };
}
