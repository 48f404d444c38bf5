import { wait } from '../chain/indexer.js';
import type { Deps } from '../platform/deps.js';
import { logError } from '../platform/log.js';
import { settleDueSeasons, type SettlementRun } from './settlement.js';

/**
 * Settlement in a long-running process (the local server): one pass over the seasons due, a pause of
 * `intervalMs`, the next pass, until stop(). What the deployed stage's scheduled function does every 10 minutes.
 */
export interface SettlementLoop {
  /** Ends the pause (a pass in flight finishes its current seasons first) and resolves when done. */
  stop(): Promise<void>;
}

export function startSettlementLoop(deps: Deps, options: { intervalMs: number; onPass?: (run: SettlementRun) => void }): SettlementLoop {
  const controller = new AbortController();
  const running = (async () => {
    while (!controller.signal.aborted) {
      try {
        options.onPass?.(await settleDueSeasons(deps));
      } catch (error) {
        // A table error ends this pass only; the seasons stay due and the next pass tries them again.
        await logError('settlement: pass failed', { error: error instanceof Error ? error.message : String(error) });
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
