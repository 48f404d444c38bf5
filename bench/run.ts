import { stopSponsorChain } from './sponsorship-operations.js';
import { benchLeague } from './league-settlement.js';
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { startDynamoLocal, type LocalDynamo } from '../tools/local/dynamo.js';
import { benchBigBoard } from './big-board.js';
import { benchBoardScaling } from './board-scaling.js';
import { benchBundles } from './bundles.js';
import { createBenchDeps } from './fixtures.js';
import { benchHttpLoad } from './http-load.js';
import { benchEmulatorItems } from './emulator-items.js';
import { benchFloorRatios } from './floor-ratios.js';
import { benchRankStreamLoad } from './rank-stream-load.js';
import { benchLoad, ITEM_WRITE_LIMIT, PRODUCTION_RPS } from './load.js';
import { benchRequests, unbenchedOperations } from './requests.js';
import { envInt, round } from './stats.js';
import { benchWarm } from './warm.js';
import { budgets, config } from './bench-config.js';
import { printBundles, printFloorRatios, printHttpLoad, printItemCosts, printLoad, printRequests, printWarm } from './print-costs.js';
import { printBigBoard, printLeague, printRankStreamLoad, printScaling } from './print-rankings.js';

/**
 * `npm run bench`: the measures the project owns and their budgets (docs/performance.md, "What is measured").
 *   1. each deployed group's bundle: its size, cold init and first response (a fresh process imports it and
 *      answers one request), as ratios to a floor bundle built in the same run (bench/first-response.ts);
 *   2. DynamoDB requests per operation against DynamoDB Local, beside the minimum of its access pattern, and the
 *      write and read units they cost on DynamoDB's on-demand billing, beside the fewest its guarantees need
 *      (bench/capacity.ts; docs/performance.md "What each operation costs");
 *   3. warm cost per request through the Lambda handler, as a ratio to a framework-free floor, and load;
 *   4. load on the hot money and report paths with the conflict rule emulated: throughput, p50/p99, conflict
 *      rate and retries per operation, and the most-written items scaled to production (bench/load.ts);
 *   5. load over real HTTP (bench/http-load.ts), and deductions and score reports beside a server making only the
 *      minimal DynamoDB call of each (bench/floor-ratios.ts);
 *   6. board shards under the emulated partition write limit: the scaling law (bench/board-scaling.ts);
 *   7. (only when named) a board of 1,000,000 players bulk-loaded, and gameRank on it (bench/big-board.ts); its
 *      heads and snapshots, rank_around on them (bench/rank-around.ts), and what keeping its ranks costs a report
 *      (bench/rank-keeping.ts);
 *   8. rank keeping under the emulated partition write limit: reports on one game with the stream drained into
 *      the heads all along, and the heads checked exact at the end (bench/rank-stream-load.ts);
 *   9. (only when named) a league of 100,000 players settled, its units per player, and placement of a stream
 *      batch of first scores (bench/league-settlement.ts);
 *  10. (only when named) what one more item read or written costs DynamoDB Local, beside part 5's minimal call
 *      (bench/emulator-items.ts), with BENCH_FLOOR_CONNECTIONS and BENCH_FLOOR_SECONDS.
 * Prints markdown tables and writes bench/results.json.
 *
 * Environment: BENCH_PARTS (default 1,2,3,4,5,6,8), BENCH_COLD_RUNS (15), BENCH_WARM_REQUESTS (1000),
 * BENCH_CONCURRENCY (8), BENCH_LOAD_SECONDS (3, parts 3 and 4), BENCH_LOAD_CONCURRENCY (20, part 4),
 * BENCH_HTTP_SECONDS (5, part 5), BENCH_HTTP_CONNECTIONS (16, part 5), BENCH_FLOOR_SECONDS (10: seconds of each server
 * beside part 5's minimal floor, per workload), BENCH_FLOOR_CONNECTIONS (20, part 5), BENCH_PARTITION_LIMIT (40, part 6),
 * BENCH_SCALING_SECONDS (10, part 6), BENCH_SCALING_CONCURRENCY (48, part 6); part 7 only when named:
 * BENCH_BOARD_PLAYERS (1000000), BENCH_BOARD_SHARDS (16), BENCH_BOARD_AROUND_READS (100 rank_around reads per
 * position), BENCH_BOARD_BATCHES (3 head batches of each size and workload), BENCH_BOARD_SNAPSHOT_CHANGES (60000
 * changes before the measured snapshot); part 8: BENCH_KEEPING_SECONDS (30), BENCH_KEEPING_PLAYERS (2000),
 * BENCH_KEEPING_HEAD (250 standings a head keeps), with BENCH_PARTITION_LIMIT and BENCH_SCALING_CONCURRENCY; part 9:
 * BENCH_LEAGUE_PLAYERS (100000), BENCH_LEAGUE_COHORT (50), BENCH_LEAGUE_METERED (2000), BENCH_LEAGUE_PLACED (1000).
 * BENCH_STRICT=1 exits 1 when a budget is missed.
 */
// The AWS SDK warns once per client that it will drop Node 20; that is not a finding of the bench.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (!`${warning.name} ${warning.message}`.includes('NodeVersionSupportWarning')) console.warn(`${warning.name}: ${warning.message}`);
});

const outDir = join(import.meta.dirname, 'out');

async function main() {
  const started = performance.now();
  const results: Record<string, unknown> = {
    timestamp: new Date().toISOString(),
    machine: {
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      platform: process.platform,
      arch: process.arch,
      memoryGB: round(totalmem() / 2 ** 30, 1),
    },
    config,
    budgets,
  };
  let failed = false;

  let dynamo: LocalDynamo | undefined;
  let deps: Awaited<ReturnType<typeof createBenchDeps>> | undefined;
  const stop = () => Promise.all([dynamo?.stop(), deps?.issuer.stop(), deps?.google.stop(), deps?.suiNode.stop(), stopSponsorChain()]);
  process.once('SIGINT', () => void Promise.resolve(stop()).finally(() => process.exit(130)));
  try {
    if (['1', '2', '3', '4', '5', '6', '7', '8', '9'].some((part) => config.parts.includes(part))) {
      dynamo = await startDynamoLocal({ jvm: 'peak' });
      deps = await createBenchDeps(dynamo.endpoint);
      if (config.parts.includes('1')) {
        const bundles = await benchBundles({ outDir, runs: config.coldRuns, budget: budgets.firstResponseRatio, deps });
        results.bundles = bundles;
        failed ||= bundles.some((b) => !b.pass);
        printBundles(bundles);
      }
      if (config.parts.includes('2')) {
        const requests = await benchRequests(deps);
        const unbenched = unbenchedOperations();
        results.requests = requests;
        results.unbenched = unbenched;
        failed ||= requests.some((r) => !r.ok);
        printRequests(requests, unbenched);
      }
      if (config.parts.includes('3')) {
        const warm = await benchWarm(deps, {
          outDir,
          requests: config.warmRequests,
          concurrency: config.concurrency,
          seconds: config.loadSeconds,
          budget: budgets.warmRatio,
        });
        results.warm = warm;
        failed ||= warm.some((w) => !w.pass);
        printWarm(warm);
      }
      if (config.parts.includes('4')) {
        const load = await benchLoad(deps, { concurrency: config.loadConcurrency, seconds: config.loadSeconds });
        results.load = { productionRps: PRODUCTION_RPS, itemWriteLimit: ITEM_WRITE_LIMIT, operations: load };
        // A missing sharding plan is a finding like a missed budget: an item past the limit nobody planned for.
        failed ||= load.some((l) => l.items.some((i) => i.flagged && !i.documented));
        printLoad(load);
      }
      if (config.parts.includes('5')) {
        const http = await benchHttpLoad(deps, { connections: config.httpConnections, seconds: config.httpSeconds });
        results.http = http;
        // A broken invariant or an error under load is a finding, like a missed budget.
        failed ||= http.invariants.violations.length > 0 || http.runs.some((r) => r.non2xx > 0 || r.errors > 0);
        printHttpLoad(http);
        const ratios = await benchFloorRatios(deps, { connections: config.floorConnections, seconds: config.floorSeconds });
        results.floorRatios = ratios;
        // Below the ratio, above the p99 budget, or a broken invariant: a missed budget.
        failed ||= ratios.some((r) => !r.pass);
        printFloorRatios(ratios);
      }
      if (config.parts.includes('6')) {
        const scaling = await benchBoardScaling(dynamo.endpoint, {
          shards: [1, 8],
          limit: config.partitionLimit,
          seconds: config.scalingSeconds,
          concurrency: config.scalingConcurrency,
        });
        results.boardScaling = scaling;
        // The law itself is the finding: a partition over the limit, or a total off, is a failure.
        failed ||= scaling.some((s) => !s.totalsExact || s.hottestPerSecond > s.limit);
        printScaling(scaling);
      }
      if (config.parts.includes('7')) {
        const board = await benchBigBoard(dynamo.endpoint, {
          players: config.boardPlayers,
          shards: config.boardShards,
          reads: 50,
          aroundReads: config.boardAroundReads,
          batches: config.boardBatches,
          snapshotChanges: config.boardSnapshotChanges,
        });
        results.bigBoard = board;
        failed ||= !board.reportLanded || !board.rankAround.correct || !board.rankAround.twoRequests;
        printBigBoard(board);
      }
      if (config.parts.includes('8')) {
        const keeping = await benchRankStreamLoad(dynamo.endpoint, {
          shards: 16,
          limit: config.partitionLimit,
          seconds: config.keepingSeconds,
          concurrency: config.scalingConcurrency,
          players: config.keepingPlayers,
          headSize: config.keepingHead,
        });
        results.rankStreamLoad = keeping;
        // A head off the score items, or a partition over the limit, is a failure.
        failed ||= !keeping.headsExact || keeping.hottestPerSecond > keeping.limit || !keeping.league.exact;
        printRankStreamLoad(keeping);
      }
      if (config.parts.includes('9')) {
        const league = await benchLeague(dynamo.endpoint, {
          players: envInt('BENCH_LEAGUE_PLAYERS', 100_000),
          cohortSize: envInt('BENCH_LEAGUE_COHORT', 50),
          meteredPlayers: envInt('BENCH_LEAGUE_METERED', 2_000),
          placed: envInt('BENCH_LEAGUE_PLACED', 1_000),
        });
        results.league = league;
        // Goals: every cohort settled, the sample right, under 10 minutes, at most 3 write units a player beside the entries.
        failed ||= !league.sampleCorrect || league.settledCohorts !== league.cohorts || league.settleSeconds > 600 || league.perPlayer.write > 3;
        printLeague(league);
      }
    }
    if (config.parts.includes('10')) {
      // On a DynamoDB Local of its own: it needs none of the parts above.
      const costs = await benchEmulatorItems({ connections: config.floorConnections, seconds: config.floorSeconds });
      results.emulatorItems = costs;
      // A measure, not a budget: only an error or a refused request is a finding.
      failed ||= costs.some((c) => c.failures > 0);
      printItemCosts(costs);
    }
  } finally {
    await stop();
  }

  results.durationSeconds = round((performance.now() - started) / 1000, 1);
  const file = join(import.meta.dirname, 'results.json');
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\n${failed ? 'Some budgets are missed (marked above).' : 'All budgets met.'} Took ${results.durationSeconds} s; results in bench/results.json`);
  if (failed && process.env.BENCH_STRICT === '1') process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
