import { withRequestContext } from '../../core/platform/request-context.js';
import { recordedSnapshotRun } from '../../core/rankings/rank-snapshots.js';
import { deployedDeps } from '../deployed.js';

/**
 * The snapshot job's scheduled Lambda (infra/jobs.ts runs it every minute): each season that takes snapshots is
 * read whole from its score items and its two boards written as snapshots (core/rankings/rank-snapshots.ts), then
 * the pages no snapshot names any more are deleted. Runs overlapping each other are safe: a board's snapshot is
 * written by one of them. A board whose changes since its last snapshot are too few for what a new one would cost
 * is left for a later run (at most 15 minutes). Every run is recorded for the stage overview: the seasons and
 * boards it read, the boards it deferred, and its pages written, kept and deleted. A run that fails throws:
 * Lambda counts it in Errors, and the next minute's run takes every board again.
 */

/** The part of the Lambda context this handler reads. */
interface LambdaContext {
  /** The run's id, on each of its log lines (core/platform/request-context.ts). */
  awsRequestId?: string;
}

/** The parts of Deps this job's needs name (functions/deployed.ts). */
const loadDeps = deployedDeps('rank-snapshots', {
  table: () => import('../../core/platform/db.js'),
});

/** What a run did: seasons read, boards of them, of those deferred (too few changes for their cost), pages written and deleted. */
interface RunSummary {
  seasons: number;
  boards: number;
  boardsDeferred: number;
  pagesWritten: number;
  pagesDeleted: number;
}

export function handler(_event: unknown, context: LambdaContext): Promise<RunSummary> {
  return withRequestContext({ requestId: context.awsRequestId }, async () => {
    const deps = await loadDeps();
    const run = await recordedSnapshotRun(deps);
    return {
      seasons: run.seasons,
      boards: run.boards,
      boardsDeferred: run.boards_deferred,
      pagesWritten: run.pages_written,
      pagesDeleted: run.pages_deleted,
    };
  });
}
