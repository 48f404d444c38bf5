import { repeatEvery, type Loop } from '../platform/loop.js';
import { recordedDeletionsPass } from './deletions-job.js';
import type { PrivacyDeps } from './deps.js';

/**
 * The deletions job in a long-running process (the local server): one pass, a pause of `intervalMs`, the next,
 * until stop(); each pass recorded as the deployed function's runs are (deletions-job.ts). A pass is not only
 * a crash's rescue: every answered deletion waits for its last sweep (core/privacy/deletion.ts), after which
 * its record forgets the player, so without the job a local deletion would keep what it knew for good.
 */
export function startDeletionsLoop(deps: PrivacyDeps, options: { intervalMs: number }): Loop {
  // No time limit here, unlike a Lambda's: a pass takes every due deletion. A failed pass
  // (`deletions.unfinished`, or a table error) is recorded, then logged; the next, after a back-off, tries again.
  return repeatEvery(options.intervalMs, 'deletions', async () => {
    await recordedDeletionsPass(deps, { deadline: Number.POSITIVE_INFINITY });
  });
}
