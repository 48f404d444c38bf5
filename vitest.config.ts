import { defineConfig } from 'vitest/config';

/**
 * The tests that read what every other test file left (the transactions they sent, the service's logs, the
 * tables, the error answers, the answers against the OpenAPI document): they run after all of them.
 */
const WALK = [
  'test/contention.test.ts',
  'test/server-logs.test.ts',
  'test/stored-items.test.ts',
  'test/error-answers.test.ts',
  'test/contract-answers.test.ts',
];

/**
 * Tests of load, run by themselves once the suite has run: beside the suite's other files on one DynamoDB Local,
 * the 10,000 reports of board-shards-load.test.ts took most of their time limit (about 90 s alone, up to 540 s
 * beside). A load file holds its load alone: its other checks run in the suite, two files at a time.
 */
const LOAD = ['test/board-shards-load.test.ts'];

/**
 * The suite's files at a time: two, whatever the machine. vitest's default is one less than the cores, one on the
 * 2-core machine CI runs on, where the test command took 42 minutes one file at a time and 26 two at a time. Three
 * took 21 minutes in one run and 28 in a clean-clone CI run, with the tests' summed time half again as long as
 * with two: on two cores a third file mostly adds waiting.
 */
const SUITE_WORKERS = 2;

/**
 * The suite's files share their worker's process, one after another, instead of a fresh process each: each file's own
 * load of the service's modules and the capture setup took about 1.5 s, 213 s of the run's summed time. So a file
 * finds the process as a fresh one would give it: environment variables through vi.stubEnv (undone after each test,
 * below) or put back in afterAll, fake timers and spies restored, the global Request and Response put back by the
 * setup file (test/support/capture-setup.ts), and the service's in-process memories keyed by table (each file has its
 * own), as they are for a warm Lambda.
 */
const SUITE_ISOLATED = false;

export default defineConfig({
  // `@game-platform/client` is clients/ts's source (tsconfig.json's paths), as for tsc, tsx and esbuild: the
  // package's exports name its build (dist), which a clone has only once `npm run build -w clients/ts` ran.
  resolve: { tsconfigPaths: true },
  test: {
    // A DynamoDB Local per worker of a project (test/support/global-setup.ts); every test file makes its own table in
    // its worker's (test/support/deps.ts).
    globalSetup: ['test/support/global-setup.ts'],
    // Every test process keeps the service's log output for test/server-logs.test.ts.
    setupFiles: ['test/support/capture-setup.ts'],
    // Limits that catch a hang, not a slow machine: files side by side on two cores run a
    // test up to three times slower than alone (with two at a time, the slowest test on a 30 s limit took 29 s).
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    unstubEnvs: true,
    projects: [
      // SUITE_WORKERS files at a time: each file has its own table, and the files that cannot share the machine
      // (LOAD, WALK) run in their own groups after it.
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: [...WALK, ...LOAD],
          maxWorkers: SUITE_WORKERS,
          isolate: SUITE_ISOLATED,
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'load', include: LOAD, sequence: { groupOrder: 1 } } },
      // Its own group, so vitest starts it once the whole suite has run.
      { extends: true, test: { name: 'walk', include: WALK, sequence: { groupOrder: 2 } } },
    ],
  },
});
