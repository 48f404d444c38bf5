import { JobFailed, recordedRun } from '../platform/job-runs.js';
import { indexEvents, type IndexerDeps, type IndexerOptions, passReport, type StopReason, type TypeSummary } from './indexer.js';

/**
 * One pass of the indexer as a run of the `indexer` job (core/platform/job-runs.ts), the same wherever it runs:
 * the deployed scheduled function (functions/jobs/indexer.ts) and the local server's loop (loop.ts). Recorded: what
 * it read and its checkpoint, and a failure's code.
 */

/** The ways a type's pass stops that are failures, not the end of the work (indexer.ts StopReason). */
const FAILURES: StopReason[] = ['node-error', 'handler-error'];

export function recordedIndexerPass<D extends IndexerDeps>(deps: D, options: IndexerOptions<D>): Promise<Record<string, TypeSummary>> {
  return recordedRun(deps, 'indexer', async (note) => {
    const summaries = await indexEvents(deps, options);
    // What the pass did, for its record; a failure to read the checkpoint leaves it out, never failing the run.
    await passReport(deps, summaries, FAILURES).then(note, () => note({ did: {} }));
    // A type whose pass stopped on a failure (the node kept failing, or storing an event did) fails the run,
    // after the other types were indexed. Deployed, Lambda counts it in Errors, which the indexer's alarm
    // watches (infra/alarms.ts), and retries it; locally the loop logs it and backs off. The cursor stayed
    // before the failed page, so nothing is lost.
    const failed = Object.entries(summaries).filter(([, summary]) => FAILURES.includes(summary.stopped));
    if (failed.length > 0) {
      throw new JobFailed(
        'indexer.pass_failed',
        `chain indexer: the pass failed for ${failed.map(([type, summary]) => `${type} (${summary.stopped})`).join(', ')}; the next run resumes from its stored cursor`,
      );
    }
    return summaries;
  });
}
