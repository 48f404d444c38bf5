import { repeatEvery, type Loop } from '../platform/loop.js';
import type { PlatformDeps } from '../platform/deps.js';
import { recordedSnapshotRun } from './rank-snapshots.js';

/**
 * The snapshot job in a long-running process (the local server): one run over the seasons that take snapshots,
 * a pause of `intervalMs`, the next run, until stop(). What the deployed stage's scheduled function does every
 * minute (functions/jobs/rank-snapshots.ts), recorded as its runs are (rank-snapshots.ts), so the stage overview shows
 * the local server's runs. A failed run (a table error) is recorded, then logged; the next, after a back-off,
 * writes every snapshot again.
 */
export function startSnapshotLoop(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, options: { intervalMs: number }): Loop {
  return repeatEvery(options.intervalMs, 'rank snapshots', async () => {
    await recordedSnapshotRun(deps);
  });
}
