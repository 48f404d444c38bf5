import { recordedDeletionsPass } from '../../core/privacy/deletions-job.js';
import { withRequestContext } from '../../core/platform/request-context.js';
import { deployedDeps } from '../deployed.js';

/**
 * The deletions' scheduled Lambda (infra/jobs.ts runs it every 10 minutes): finishes every player's account
 * deletion whose run stopped halfway and was not retried (core/privacy/deletion.ts resumeDeletions), stopping
 * before the Lambda's time is up. Overlapping runs are safe: one run at a time holds a deletion's lease. Every
 * run is recorded for the stage overview (core/privacy/deletions-job.ts): the deletions it finished and failed
 * to; one left unfinished throws, so Lambda counts it in Errors.
 */

/** Time kept back from the Lambda's limit: a deletion's round in flight finishes in it. */
const MARGIN_MS = 30_000;

interface LambdaContext {
  getRemainingTimeInMillis(): number;
  awsRequestId?: string;
}

/** The parts of Deps this job's needs name (functions/deployed.ts). */
const loadDeps = deployedDeps('deletions', {
  table: () => import('../../core/platform/db.js'),
});

export function handler(_event: unknown, context: LambdaContext): Promise<{ finished: number; failed: number }> {
  return withRequestContext({ requestId: context.awsRequestId }, async () => {
    const deps = await loadDeps();
    return recordedDeletionsPass(deps, { deadline: Date.now() + context.getRemainingTimeInMillis() - MARGIN_MS });
  });
}
