import { JobFailed, recordedRun } from '../platform/job-runs.js';
import { resumeDeletions } from './deletion.js';
import type { PrivacyDeps } from './deps.js';

/**
 * One pass of the deletions job (resumeDeletions) as a run of the `deletions` job (core/platform/job-runs.ts):
 * the deletions it finished and failed to, the same wherever it runs: the deployed scheduled function
 * (functions/jobs/deletions.ts) and the local server's loop (loop.ts).
 */
export function recordedDeletionsPass(deps: PrivacyDeps, options: { deadline: number }): Promise<{ finished: number; failed: number }> {
  return recordedRun(deps, 'deletions', async (note) => {
    const pass = await resumeDeletions(deps, options);
    note({ did: { finished: pass.finished, failed: pass.failed } });
    // A deletion left unfinished fails the run. Deployed, Lambda counts it in Errors, which the job's alarm
    // watches; locally the loop logs it and backs off.
    if (pass.failed > 0) {
      throw new JobFailed(
        'deletions.unfinished',
        `deletions: ${pass.failed} unfinished deletions could not be finished (logged); the next run tries them again`,
      );
    }
    return pass;
  });
}
