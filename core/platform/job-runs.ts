import { randomUUID } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { nullByDefault } from '../shared/records.js';
import { conditionHeld, isConditionalFailure } from './conditional-failure.js';
import type { PlatformDeps } from './deps.js';
import { DomainError } from './errors.js';
import { logError } from './log.js';
import { queryItems } from './query.js';
import { requestLogFields } from './request-context.js';

/**
 * What the scheduled jobs write about their runs, for the admins' stage overview (core/platform/stage-overview.ts).
 * Each run of a job (functions/jobs/indexer.ts, settlement.ts, deletions.ts, and each batch of the boards' head stream
 * consumer, functions/jobs/rank-pages.ts; under `npm start`, each pass of the local server's loop standing in for
 * it) is recorded when it ends:
 *
 * - "a job's last run" (pk `JOBRUN#<job>`, sk `JOBRUN`): its start, end, outcome (`ok` or `failed`), on failure a
 *   code and a short summary (never a stack, a secret or the text of an error the platform did not write), what
 *   it did (counts, and the indexer's checkpoint), the Lambda request id its log lines carry, and the end of the
 *   job's last successful run. An overlapping run that started earlier does not overwrite a later one's record.
 * - "a job's failed runs, newest first" (pk `JOBFAIL#<job>`, sk `<ended at>#<run id>`): one item per failed run,
 *   kept 30 days (TTL `expiresAt`).
 *
 * Writing the record never fails the job: a write that fails is logged (`job runs: a run was not recorded`) and
 * the job answers what it would have answered. A job's process that dies mid-run (a timeout) records nothing.
 */

/** The jobs whose runs are recorded, as the overview lists them. */
export const JOBS = ['indexer', 'settlement', 'deletions', 'rank-pages', 'rank-snapshots'] as const;
export type JobName = (typeof JOBS)[number];

/** How long a failed run's item is kept. */
const FAILURE_KEEP_SECONDS = 30 * 24 * 60 * 60;
/** A failure's summary is cut at this length. */
const SUMMARY_MAX = 300;
/** Failed runs the overview lists per job at most (the newest). */
export const FAILURES_LISTED = 50;

/** The partition prefix and the sort key of every job's last run. */
export const JOB_RUN_PREFIX = 'JOBRUN#';
export const JOB_RUN_SORT_KEY = 'JOBRUN';
/** "a job's last run". */
export const jobRunKey = (job: JobName) => ({ pk: `${JOB_RUN_PREFIX}${job}`, sk: JOB_RUN_SORT_KEY });
/** The partition prefix of every job's failed runs. */
export const JOB_FAILURE_PREFIX = 'JOBFAIL#';
/** The partition of "a job's failed runs, newest first". */
const jobFailures = (job: JobName) => `${JOB_FAILURE_PREFIX}${job}`;

const RunError = z.object({ code: z.string(), summary: z.string() });

/** What a run did: counts by name, and where it left off (the indexer's checkpoint). */
const RunReport = z.object({ did: z.record(z.string(), z.int()), checkpoint: nullByDefault(z.string()) });
export type RunReport = z.infer<typeof RunReport>;

/** A job's last run, as the overview answers it. */
export const JobRun = z.object({
  started_at: z.string(),
  ended_at: z.string(),
  outcome: z.enum(['ok', 'failed']),
  error: nullByDefault(RunError),
  ...RunReport.shape,
  request_id: nullByDefault(z.string()),
});
export type JobRun = z.infer<typeof JobRun>;

/** "a job's last run" as stored: the run, and when the job last succeeded. */
export const StoredJobRun = z.extend(JobRun, { last_success_at: nullByDefault(z.string()) });

/** A failed run, as the overview lists it: when it failed (its end), why, and its Lambda request id. */
export const JobFailure = z.object({ at: z.string(), error: RunError, request_id: nullByDefault(z.string()) });
export type JobFailure = z.infer<typeof JobFailure>;

/** "a job's failed runs" as stored. */
export const StoredJobFailure = z.object({ ended_at: z.string(), error: RunError, request_id: nullByDefault(z.string()) });

/** A run that did its work but must count as failed (some of it could not be done): its code and summary are recorded. */
export class JobFailed extends Error {
  constructor(
    /** `<job>.<reason>`, snake_case. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'JobFailed';
  }
}

/**
 * What is recorded of a run's error: the code and message of the platform's own errors (JobFailed, a domain
 * error: their messages are written to be shown), else only the error's name (`ResourceNotFoundException`,
 * `TypeError`): its message may carry what a record must not (addresses, a setting's text), so the summary
 * sends the reader to the run's log lines.
 */
export function runErrorOf(error: unknown): { code: string; summary: string } {
  if (error instanceof JobFailed || error instanceof DomainError) return { code: error.code, summary: error.message.slice(0, SUMMARY_MAX) };
  const name = error instanceof Error && /^[A-Za-z][A-Za-z0-9_.]{0,63}$/.test(error.name) ? error.name : 'Error';
  return { code: name, summary: `${name}: an unexpected error; the run's log lines (its request id) say more` };
}

/**
 * Runs `work` as one run of `job` and records it when it ends, whatever the outcome: its result is answered, or
 * its error thrown, as if it were not recorded. `work` tells what it did with `note` (the last note counts, even
 * when it then throws).
 */
export async function recordedRun<T>(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>,
  job: JobName,
  work: (note: (report: { did: Record<string, number>; checkpoint?: string | null }) => void) => Promise<T>,
): Promise<T> {
  const startedAt = deps.now().toISOString();
  let report: RunReport = { did: {}, checkpoint: null };
  const note = (next: { did: Record<string, number>; checkpoint?: string | null }) => {
    report = { did: next.did, checkpoint: next.checkpoint ?? null };
  };
  let error: { code: string; summary: string } | null = null;
  try {
    return await work(note);
  } catch (thrown) {
    error = runErrorOf(thrown);
    throw thrown;
  } finally {
    const run: JobRun = {
      started_at: startedAt,
      ended_at: deps.now().toISOString(),
      outcome: error ? 'failed' : 'ok',
      error,
      ...report,
      request_id: requestLogFields().function_request_id ?? null,
    };
    await recordRun(deps, job, run);
  }
}

/**
 * Records a failed run of `job` that started at `startedAt` and failed with `error` before any work that
 * recordedRun wraps (the local rank-pages loop's pass that could not read the table's stream: it records a
 * run only for a batch read, and none was). Never throws.
 */
export function recordFailedRun(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, job: JobName, startedAt: Date, error: unknown): Promise<void> {
  return recordRun(deps, job, {
    started_at: startedAt.toISOString(),
    ended_at: deps.now().toISOString(),
    outcome: 'failed',
    error: runErrorOf(error),
    did: {},
    checkpoint: null,
    request_id: requestLogFields().function_request_id ?? null,
  });
}

/** Writes a run's record (and, failed, its failure item); never throws. */
async function recordRun(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, job: JobName, run: JobRun): Promise<void> {
  const writes = [writeLastRun(deps, job, run)];
  if (run.outcome === 'failed') {
    writes.push(
      deps.db
        .send(
          new PutCommand({
            TableName: deps.table,
            Item: {
              pk: jobFailures(job),
              sk: `${run.ended_at}#${run.request_id ?? randomUUID()}`,
              type: 'job_failure',
              job,
              started_at: run.started_at,
              ended_at: run.ended_at,
              error: run.error,
              request_id: run.request_id,
              expiresAt: Math.floor(Date.parse(run.ended_at) / 1000) + FAILURE_KEEP_SECONDS,
            },
          }),
        )
        .then(() => undefined),
    );
  }
  const outcomes = await Promise.allSettled(writes);
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    const reason = failed.reason;
    await logError('job runs: a run was not recorded', { job, outcome: run.outcome, error: reason instanceof Error ? reason.name : String(reason) }).catch(
      () => {},
    );
  }
}

/** The last run's item, unless a run that started later recorded already; a success still moves last_success_at. */
async function writeLastRun(deps: Pick<PlatformDeps, 'db' | 'table'>, job: JobName, run: JobRun): Promise<void> {
  const ok = run.outcome === 'ok';
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: jobRunKey(job),
        UpdateExpression:
          'SET #type = :type, job = :job, started_at = :started, ended_at = :ended, outcome = :outcome, #error = :error, did = :did, ' +
          `checkpoint = :checkpoint, request_id = :request${ok ? ', last_success_at = :ended' : ''}`,
        ConditionExpression: 'attribute_not_exists(started_at) OR started_at <= :started',
        ExpressionAttributeNames: { '#type': 'type', '#error': 'error' },
        ExpressionAttributeValues: {
          ':type': 'job_run',
          ':job': job,
          ':started': run.started_at,
          ':ended': run.ended_at,
          ':outcome': run.outcome,
          ':error': run.error,
          ':did': run.did,
          ':checkpoint': run.checkpoint,
          ':request': run.request_id,
        },
      }),
    );
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    if (!ok) return;
    await conditionHeld(
      deps.db.send(
        new UpdateCommand({
          TableName: deps.table,
          Key: jobRunKey(job),
          UpdateExpression: 'SET last_success_at = :ended',
          ConditionExpression: 'attribute_not_exists(last_success_at) OR last_success_at < :ended',
          ExpressionAttributeValues: { ':ended': run.ended_at },
        }),
      ),
    );
  }
}

/** A job's last run and last success, from its "last run" item (undefined: the job never recorded a run). */
export function lastRunOf(item: Record<string, unknown> | undefined): { last_run: JobRun | null; last_success_at: string | null } {
  if (!item) return { last_run: null, last_success_at: null };
  const { last_success_at, ...run } = StoredJobRun.parse(item);
  return { last_run: run, last_success_at };
}

/** A job's failed runs that ended at or after `since` (ISO), newest first, at most FAILURES_LISTED; those past their TTL left out. */
export async function failuresSince(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, job: JobName, since: string): Promise<JobFailure[]> {
  const items = await queryItems(
    deps,
    {
      KeyConditionExpression: 'pk = :pk AND sk >= :since',
      ExpressionAttributeValues: { ':pk': jobFailures(job), ':since': since },
      ScanIndexForward: false,
    },
    FAILURES_LISTED,
  );
  const now = Math.floor(deps.now().getTime() / 1000);
  return items
    .filter((item) => typeof item.expiresAt !== 'number' || item.expiresAt > now)
    .map((item) => {
      const failure = StoredJobFailure.parse(item);
      return { at: failure.ended_at, error: failure.error, request_id: failure.request_id };
    });
}
