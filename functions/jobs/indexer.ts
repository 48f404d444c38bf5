import type { TypeSummary } from '../../core/chain/indexer.js';
import { recordedIndexerPass } from '../../core/chain/indexer-job.js';
import { paymentHandlers } from '../../core/payments/indexer-handlers.js';
import { claimAndGasHandlers } from '../../core/sponsorship/spent.js';
import { withRequestContext } from '../../core/platform/request-context.js';
import { deployedDeps } from '../deployed.js';

/**
 * The chain indexer's scheduled Lambda (infra/jobs.ts runs it every minute): one pass over the configured
 * event types, from their stored cursors, stopping before the Lambda's time is up. A stage without a chain
 * configured does nothing (and records no run). Every run is recorded for the stage overview
 * (core/chain/indexer-job.ts): what it read and its checkpoint, and a failure's code. A pass that failed for a
 * type throws, after the other types were indexed: Lambda counts it in Errors and retries it.
 */

/** Time kept back from the Lambda's limit: a page in flight (a node request and its 50 writes) finishes in it. */
const MARGIN_MS = 15_000;

/** The part of the Lambda context this handler reads. */
interface LambdaContext {
  getRemainingTimeInMillis(): number;
  /** The run's id, on each of its log lines (core/platform/request-context.ts). */
  awsRequestId?: string;
}

/** The parts of Deps this job's needs name (functions/deployed.ts). */
const loadDeps = deployedDeps('indexer', {
  table: () => import('../../core/platform/db.js'),
  chain: () => import('../../core/chain/source.js'),
});

export function handler(_event: unknown, context: LambdaContext): Promise<Record<string, TypeSummary>> {
  return withRequestContext({ requestId: context.awsRequestId }, async () => {
    const deps = await loadDeps();
    if (!deps.chain) return {};
    // Payments, and reward claims paid on chain when the stage names a claimEventType (with a sponsored claim's gas).
    return recordedIndexerPass(deps, {
      handlers: { ...paymentHandlers(deps), ...claimAndGasHandlers(deps) },
      deadline: Date.now() + context.getRemainingTimeInMillis() - MARGIN_MS,
    });
  });
}
