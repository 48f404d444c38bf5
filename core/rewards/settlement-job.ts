import { JobFailed, recordedRun } from '../platform/job-runs.js';
import type { RewardsDeps } from './deps.js';
import { settleDueSeasons, type SettlementRun } from './settlement.js';

/**
 * More to settle in the same pass, given by the caller (settlement is below the domains that add to it): what it
 * did, counted for the run's record, and how many of its seasons failed.
 */
export type AlsoSettled = (deadline: number | undefined) => Promise<{ did: Record<string, number>; failed: number }>;

/**
 * One pass of settlement as a run of the `settlement` job (core/platform/job-runs.ts), the same wherever it
 * runs: the deployed scheduled function (functions/jobs/settlement.ts) and the local server's loop (loop.ts).
 * Recorded: the seasons it found due, settled, found settled by another run, and failed to settle.
 */
export function recordedSettlementPass(deps: RewardsDeps, options: { deadline?: number; also?: AlsoSettled } = {}): Promise<SettlementRun> {
  return recordedRun(deps, 'settlement', async (note) => {
    const run = await settleDueSeasons(deps, options);
    const settledNow = run.settled.filter((season) => season.settled_now).length;
    // What the caller settles in the same pass (the leagues' seasons, core/leagues/settlement.ts), after the boards'.
    const also = options.also ? await options.also(options.deadline) : { did: {}, failed: 0 };
    note({
      did: {
        seasons_due: run.settled.length + run.failed,
        seasons_settled: settledNow,
        seasons_already_settled: run.settled.length - settledNow,
        seasons_failed: run.failed,
        ...also.did,
      },
    });
    if (also.failed > 0) {
      throw new JobFailed(
        'settlement.seasons_failed',
        `settlement: ${also.failed} due league seasons failed to settle (logged); the next run tries them again`,
      );
    }
    // A season that failed to settle (logged with its cause) fails the run once the others are done. Deployed,
    // Lambda counts it in Errors, which settlement's alarm watches (infra/alarms.ts); locally the loop logs it
    // and backs off. The next run tries the season again (settling is once-only, so a retry cannot pay twice).
    if (run.failed > 0) {
      throw new JobFailed(
        'settlement.seasons_failed',
        `settlement: ${run.failed} of ${run.failed + run.settled.length} due seasons failed to settle (logged); the next run tries them again`,
      );
    }
    return run;
  });
}
