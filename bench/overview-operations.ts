import type { OperationBench } from './operations.js';
import { accountWithToken } from './fixtures.js';

/** The stage overview (functions/routes/overview.ts): an admin console read. */
export const overviewOperations: OperationBench[] = [
  {
    group: 'admin-console',
    op: 'stage_overview',
    label: 'stage_overview (14 days, the default)',
    minimum: 7,
    reason:
      "one batch read of the days' figure shards and the jobs' last runs (14 × 16 + 4 = 228 keys: 3 BatchGetItem of at most 100) ∥ one Query of each of the 4 jobs' failed runs; the admin's account state is remembered (it moves no value)",
    units: {
      write: 0,
      read: 116,
      why: "224 figure shards (14 days × 16) and 4 jobs' last runs, 0.5 a key even when absent (112 + 2) + 4 Queries (0.5 each); the shards are separate partitions so that the counts spread their writes",
    },
    prepare: async (deps) => ({ token: (await accountWithToken(deps, 'admin')).token }),
  },
];
