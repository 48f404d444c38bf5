import type { RewardsDeps } from './deps.js';
import { repeatEvery, type Loop } from '../platform/loop.js';
import type { SettlementRun } from './settlement.js';
import { type AlsoSettled, recordedSettlementPass } from './settlement-job.js';

/**
 * Settlement in a long-running process (the local server): one pass over the seasons due, a pause of
 * `intervalMs`, the next pass, until stop(). What the deployed stage's scheduled function does every 10 minutes,
 * recorded as its runs are (settlement-job.ts), so the stage overview shows the local server's runs.
 */
export type SettlementLoop = Loop;

export function startSettlementLoop(
  deps: RewardsDeps,
  options: { intervalMs: number; onPass?: (run: SettlementRun) => void; also?: AlsoSettled },
): SettlementLoop {
  // A failed pass (a table error, or a season that failed to settle: `settlement.seasons_failed`) is recorded,
  // then ends only that pass, logged; the seasons stay due and the next pass, after a back-off, tries them
  // again. The pass always runs; onPass is only told what a successful one did.
  return repeatEvery(options.intervalMs, 'settlement', async () => {
    const run = await recordedSettlementPass(deps, options.also ? { also: options.also } : {});
    options.onPass?.(run);
  });
}
