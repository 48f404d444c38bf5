import { resumeDeletions } from '../core/privacy/deletion.js';
import { JobFailed, recordedRun } from '../core/platform/job-runs.js';
import { withRequestContext } from '../core/platform/request-context.js';
import { deployedDeps } from './deployed.js';

/**
 * The deletions' scheduled Lambda (infra/jobs.ts runs it every 10 minutes): finishes every player's account
 * deletion whose run stopped halfway and was not retried (core/privacy/deletion.ts resumeDeletions), stopping
 * before the Lambda's time is up. Overlapping runs are safe: one run at a time holds a deletion's lease. Every
 * run is recorded for the stage overview (core/platform/job-runs.ts): the deletions it finished and failed to.
 */

/** Time kept back from the Lambda's limit: a deletion's round in flight finishes in it. */
const MARGIN_MS = 30_000;

interface LambdaContext {
  getRemainingTimeInMillis(): number;
  awsRequestId?: string;
}

export function handler(_event: unknown, context: LambdaContext): Promise<{ finished: number; failed: number }> {
  return withRequestContext({ requestId: context.awsRequestId }, async () => {
    const deps = await deployedDeps();
    return recordedRun(deps, 'deletions', async (note) => {
      const pass = await resumeDeletions(deps, { deadline: Date.now() + context.getRemainingTimeInMillis() - MARGIN_MS });
      note({ did: { finished: pass.finished, failed: pass.failed } });
      // A deletion left unfinished fails the invocation: Lambda counts it in Errors, which the job's alarm watches.
      if (pass.failed > 0) {
        throw new JobFailed(
          'deletions.unfinished',
          `deletions: ${pass.failed} unfinished deletions could not be finished (logged); the next run tries them again`,
        );
      }
      return pass;
    });
  });
}
