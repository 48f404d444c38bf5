import { countDayFigures } from '../../core/payments/day-figures.js';
import { withRequestContext } from '../../core/platform/request-context.js';
import type { StreamEvent } from '../../core/platform/stream-records.js';
import { deployedDeps } from '../deployed.js';

/**
 * The day figures' Lambda (infra/day-figures.ts subscribes it to the table's stream: pay orders, ledger entries and
 * ticket balances only): each batch of records is counted into the stage overview's figures (core/payments/day-figures.ts), one
 * UpdateItem per day the batch touches. A failed write fails the batch, which Lambda retries (infra/day-figures.ts).
 */

/** The part of the Lambda context this handler reads. */
interface LambdaContext {
  /** The invocation's id, on each of its log lines (core/platform/request-context.ts). */
  awsRequestId?: string;
}

/** The parts of Deps this function's needs name (functions/deployed.ts). */
const loadDeps = deployedDeps('day-figures', {
  table: () => import('../../core/platform/db.js'),
});

export function handler(event: StreamEvent, context: LambdaContext): Promise<{ days: number }> {
  return withRequestContext({ requestId: context.awsRequestId }, async () => {
    const deps = await loadDeps();
    return {
      days: await countDayFigures(
        deps,
        event.Records.map((record) => record.dynamodb ?? {}),
      ),
    };
  });
}
