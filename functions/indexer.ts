import { indexEvents, passReport, type StopReason, type TypeSummary } from '../core/chain/indexer.js';
import { paymentHandlers } from '../core/payments/indexer-handlers.js';
import { claimHandlers } from '../core/rewards/claim-events.js';
import { JobFailed, recordedRun } from '../core/platform/job-runs.js';
import { withRequestContext } from '../core/platform/request-context.js';
import { deployedDeps } from './deployed.js';

/**
 * The chain indexer's scheduled Lambda (infra/jobs.ts runs it every minute): one pass over the configured
 * event types, from their stored cursors, stopping before the Lambda's time is up. A stage without a chain
 * configured does nothing (and records no run). Every run is recorded for the stage overview
 * (core/platform/job-runs.ts): what it read and its checkpoint, and a failure's code.
 */

/** Time kept back from the Lambda's limit: a page in flight (a node request and its 50 writes) finishes in it. */
const MARGIN_MS = 15_000;

/** The part of the Lambda context this handler reads. */
interface LambdaContext {
  getRemainingTimeInMillis(): number;
  /** The run's id, on each of its log lines (core/platform/request-context.ts). */
  awsRequestId?: string;
}

export function handler(_event: unknown, context: LambdaContext): Promise<Record<string, TypeSummary>> {
  return withRequestContext({ requestId: context.awsRequestId }, async () => {
    const deps = await deployedDeps();
    if (!deps.chain) return {};
    return recordedRun(deps, 'indexer', async (note) => {
      // Payments, and reward claims paid on chain when the stage names a claimEventType.
      const summaries = await indexEvents(deps, {
        handlers: { ...paymentHandlers(deps), ...claimHandlers(deps) },
        deadline: Date.now() + context.getRemainingTimeInMillis() - MARGIN_MS,
      });
      // What the pass did, for its record; a failure to read the checkpoint leaves it out, never failing the run.
      await passReport(deps, summaries, FAILURES).then(note, () => note({ did: {} }));
      // A type whose pass stopped on a failure (the node kept failing, or storing an event did) fails the
      // invocation, after the other types were indexed: Lambda counts it in Errors, which the indexer's alarm
      // watches (infra/alarms.ts), and retries it. The cursor stayed before the failed page, so nothing is lost.
      const failed = Object.entries(summaries).filter(([, summary]) => FAILURES.includes(summary.stopped));
      if (failed.length > 0) {
        throw new JobFailed(
          'indexer.pass_failed',
          `chain indexer: the pass failed for ${failed.map(([type, summary]) => `${type} (${summary.stopped})`).join(', ')}; the next run resumes from its stored cursor`,
        );
      }
      return summaries;
    });
  });
}

/** The ways a type's pass stops that are failures, not the end of the work (core/chain/indexer.ts StopReason). */
const FAILURES: StopReason[] = ['node-error', 'handler-error'];
