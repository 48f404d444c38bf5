import { JOBS } from '../core/platform/job-runs.js';
import type { OperationBench } from './operation-bench.js';
import { accountWithToken } from './fixtures.js';

/** The stage overview (functions/routes/overview.ts): an admin console read. */
export const overviewOperations: OperationBench[] = [
  {
    group: 'admin-console',
    op: 'stage_overview',
    label: 'stage_overview (14 days, the default)',
    minimum: 3 + JOBS.length,
    reason: `one batch read of the days' figure shards and the jobs' last runs (14 × 16 + ${JOBS.length} = ${14 * 16 + JOBS.length} keys: 3 BatchGetItem of at most 100) ∥ one Query of each of the ${JOBS.length} jobs' failed runs; the admin's account state is remembered (it moves no value)`,
    units: {
      write: 0,
      read: 112 + JOBS.length,
      why: `224 figure shards (14 days × 16) and ${JOBS.length} jobs' last runs, 0.5 a key even when absent (112 + ${JOBS.length / 2}) + ${JOBS.length} Queries (0.5 each); the shards are separate partitions so that the counts spread their writes`,
    },
    prepare: async (deps) => ({ token: (await accountWithToken(deps, 'admin')).token }),
  },
];
