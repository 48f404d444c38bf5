import { settleDueSeasons, type SettlementRun } from '../core/rewards/settlement.js';
import { JobFailed, recordedRun } from '../core/platform/job-runs.js';
import { withRequestContext } from '../core/platform/request-context.js';
import { deployedDeps } from './deployed.js';

/**
 * Settlement's scheduled Lambda (infra/jobs.ts runs it every 10 minutes): settles every season of every game
 * that has ended, stopping before the Lambda's time is up (what is left is the next run's). Runs overlapping
 * each other are safe: each season is settled once (core/rewards/settlement.ts). Every run is recorded for the
 * stage overview (core/platform/job-runs.ts): the seasons it found due, settled and failed to settle.
 */

/** Time kept back from the Lambda's limit: a season in flight (a few requests) finishes in it. */
const MARGIN_MS = 20_000;

/** The part of the Lambda context this handler reads. */
interface LambdaContext {
  getRemainingTimeInMillis(): number;
  /** The run's id, on each of its log lines (core/platform/request-context.ts). */
  awsRequestId?: string;
}

export function handler(_event: unknown, context: LambdaContext): Promise<{ settled: number; settledNow: number; failed: number }> {
  return withRequestContext({ requestId: context.awsRequestId }, async () => {
    const deps = await deployedDeps();
    return recordedRun(deps, 'settlement', async (note) => {
      const run: SettlementRun = await settleDueSeasons(deps, { deadline: Date.now() + context.getRemainingTimeInMillis() - MARGIN_MS });
      const answer = { settled: run.settled.length, settledNow: run.settled.filter((s) => s.settled_now).length, failed: run.failed };
      // Settled by this run; found settled by another run; failed to settle.
      note({
        did: {
          seasons_due: answer.settled + answer.failed,
          seasons_settled: answer.settledNow,
          seasons_already_settled: answer.settled - answer.settledNow,
          seasons_failed: answer.failed,
        },
      });
      // A season that failed to settle (logged with its cause) fails the invocation once the others are done:
      // Lambda counts it in Errors, which settlement's alarm watches (infra/alarms.ts), and the next run tries
      // the season again (settling is once-only, so a retry cannot pay twice).
      if (run.failed > 0) {
        throw new JobFailed(
          'settlement.seasons_failed',
          `settlement: ${run.failed} of ${run.failed + run.settled.length} due seasons failed to settle (logged); the next run tries them again`,
        );
      }
      return answer;
    });
  });
}
