import { leagueSettlement } from '../../core/leagues/settlement.js';
import { recordedSettlementPass } from '../../core/rewards/settlement-job.js';
import { withRequestContext } from '../../core/platform/request-context.js';
import { deployedDeps } from '../deployed.js';

/**
 * Settlement's scheduled Lambda (infra/jobs.ts runs it every 10 minutes): settles every season of every game
 * that has ended, stopping before the Lambda's time is up (what is left is the next run's). Runs overlapping
 * each other are safe: each season is settled once (core/rewards/settlement.ts). Every run is recorded for the
 * stage overview (core/rewards/settlement-job.ts): the seasons it found due, settled and failed to settle, the
 * leagues' seasons with them (core/leagues/settlement.ts). A
 * season that failed to settle throws once the others are done: Lambda counts it in Errors.
 */

/** Time kept back from the Lambda's limit: a season in flight (a few requests) finishes in it. */
const MARGIN_MS = 20_000;

/** The part of the Lambda context this handler reads. */
interface LambdaContext {
  getRemainingTimeInMillis(): number;
  /** The run's id, on each of its log lines (core/platform/request-context.ts). */
  awsRequestId?: string;
}

/** The parts of Deps this job's needs name (functions/deployed.ts). */
const loadDeps = deployedDeps('settlement', {
  table: () => import('../../core/platform/db.js'),
});

export function handler(_event: unknown, context: LambdaContext): Promise<{ settled: number; settledNow: number; failed: number }> {
  return withRequestContext({ requestId: context.awsRequestId }, async () => {
    const deps = await loadDeps();
    const run = await recordedSettlementPass(deps, { deadline: Date.now() + context.getRemainingTimeInMillis() - MARGIN_MS, also: leagueSettlement(deps) });
    // Seasons found due and settled (by this run or another), of them settled by this run, and failed.
    return { settled: run.settled.length, settledNow: run.settled.filter((s) => s.settled_now).length, failed: run.failed };
  });
}
