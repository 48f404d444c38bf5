import { stopSponsorChain } from './sponsorship-operations.js';
import { benchLeague, type LeagueBenchResult } from './league-settlement.js';
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { startDynamoLocal, type LocalDynamo } from '../tools/local/dynamo.js';
import { benchBigBoard, type BigBoardResult } from './big-board.js';
import { benchBoardScaling, type ScalingResult } from './board-scaling.js';
import { benchBundles, type BundleResult } from './bundles.js';
import { createBenchDeps } from './fixtures.js';
import { notBenched } from './operations.js';
import { FLOOR_WRITE_RATIO } from './operation-bench.js';
import { benchHttpLoad, type HttpLoadResult } from './http-load.js';
import { benchFloorRatios, type FloorRatio, MAX_P99_RATIO, MIN_RATIO } from './floor-ratios.js';
import type { RankAroundResult } from './rank-around.js';
import type { RankKeepingResult } from './rank-keeping.js';
import { benchRankStreamLoad, type RankStreamLoadResult } from './rank-stream-load.js';
import { benchLoad, ITEM_WRITE_LIMIT, PRODUCTION_RPS, type LoadResult } from './load.js';
import { benchRequests, unbenchedOperations, type RequestResult } from './requests.js';
import type { Charge } from './capacity-meter.js';
import { envInt, round } from './stats.js';
import { benchWarm, type WarmResult } from './warm.js';

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
 *      batch of first scores (bench/league-settlement.ts).
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
const budgets = { firstResponseRatio: 1.3, warmRatio: 1.5 };
const config = {
  parts: (process.env.BENCH_PARTS ?? '1,2,3,4,5,6,8').split(',').map((p) => p.trim()),
  coldRuns: envInt('BENCH_COLD_RUNS', 15),
  warmRequests: envInt('BENCH_WARM_REQUESTS', 1000),
  concurrency: envInt('BENCH_CONCURRENCY', 8),
  loadSeconds: envInt('BENCH_LOAD_SECONDS', 3),
  loadConcurrency: envInt('BENCH_LOAD_CONCURRENCY', 20),
  httpSeconds: envInt('BENCH_HTTP_SECONDS', 5),
  httpConnections: envInt('BENCH_HTTP_CONNECTIONS', 16),
  floorConnections: envInt('BENCH_FLOOR_CONNECTIONS', 20),
  floorSeconds: envInt('BENCH_FLOOR_SECONDS', 10),
  partitionLimit: envInt('BENCH_PARTITION_LIMIT', 40),
  scalingSeconds: envInt('BENCH_SCALING_SECONDS', 10),
  scalingConcurrency: envInt('BENCH_SCALING_CONCURRENCY', 48),
  boardPlayers: envInt('BENCH_BOARD_PLAYERS', 1_000_000),
  boardShards: envInt('BENCH_BOARD_SHARDS', 16),
  boardAroundReads: envInt('BENCH_BOARD_AROUND_READS', 100),
  boardBatches: envInt('BENCH_BOARD_BATCHES', 3),
  boardSnapshotChanges: envInt('BENCH_BOARD_SNAPSHOT_CHANGES', 60_000),
  keepingSeconds: envInt('BENCH_KEEPING_SECONDS', 30),
  keepingPlayers: envInt('BENCH_KEEPING_PLAYERS', 2000),
  keepingHead: envInt('BENCH_KEEPING_HEAD', 250),
};
// The AWS SDK warns once per client that it will drop Node 20; that is not a finding of the bench.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (!`${warning.name} ${warning.message}`.includes('NodeVersionSupportWarning')) console.warn(`${warning.name}: ${warning.message}`);
});

const outDir = join(import.meta.dirname, 'out');
const mark = (pass: boolean) => (pass ? 'pass' : '**FAIL**');

function table(headers: string[], rows: (string | number)[][]): string {
  const lines = [headers, headers.map(() => '---'), ...rows.map((r) => r.map(String))];
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function printLeague(league: LeagueBenchResult) {
  console.log(
    `\n## 9. A league of ${league.players.toLocaleString('en')} players in ${league.cohorts.toLocaleString('en')} cohorts (bulk-loaded in ${league.loadSeconds} s)\n`,
  );
  console.log(
    table(
      ['step', 'result'],
      [
        [
          'settlement of the season',
          `${league.settleSeconds} s, ${league.settledCohorts} of ${league.cohorts} cohorts settled${league.settleSeconds > 600 ? ' **ABOVE 10 min**' : ''}`,
        ],
        ['sample cohorts against ranks computed here', league.sampleCorrect ? 'right' : '**WRONG**'],
        [
          `units per player (metered on ${league.perPlayer.meteredPlayers.toLocaleString('en')} players)`,
          `${league.perPlayer.write} write${league.perPlayer.write > 3 ? ' **ABOVE 3**' : ''}, ${league.perPlayer.read} read; the reward entries ${league.perPlayer.entriesWrite} write in all`,
        ],
        [
          `placement of ${league.placement.players.toLocaleString('en')} first scores in one stream batch`,
          `${Object.entries(league.placement.requests)
            .map(([name, n]) => `${name} x${n}`)
            .join(', ')}; ${league.placement.writePerPlayer} write units a player; ${league.placement.seconds} s`,
        ],
      ],
    ),
  );
}

function printBigBoard(board: BigBoardResult) {
  console.log(
    `\n## 7. A board of ${board.players.toLocaleString('en')} players (one game's week in ${board.shards} shards, its month empty; bulk-loaded in ${board.load.seconds} s, ${board.load.itemsPerSecond} items/s; gameRank read ${board.reads} times in sequence)\n`,
  );
  console.log(
    table(
      ['read', 'DynamoDB requests', 'p50 ms', 'p99 ms', 'a report lands in the loaded item'],
      [
        [
          'gameRank (top 100 of 4 boards)',
          Object.entries(board.requestsPerRead)
            .map(([name, n]) => `${name} x${n}`)
            .join(', '),
          board.p50Ms,
          board.p99Ms,
          board.reportLanded ? 'yes' : '**NO**',
        ],
      ],
    ),
  );
  printRankAround(board.rankAround);
  printRankKeeping(board.rankKeeping, board.report);
}

function printRankAround(ranks: RankAroundResult) {
  const built = ranks.built
    .map(
      (b) =>
        `${b.board}: head ${b.headPages} pages (directory ${b.headDirectoryKb} KB), snapshot ${b.snapshotPages} pages (directory ${b.snapshotDirectoryKb} KB), built and written in ${b.seconds} s`,
    )
    .join('; ');
  console.log(
    `\nrank_around (around=${ranks.around}, ${ranks.reads} reads per position in sequence, each answer checked against ranks counted from the loaded scores; heads and snapshots built from the loaded standings: ${built})\n`,
  );
  console.log(
    table(
      [
        'board',
        'players read',
        'DynamoDB requests per read',
        'answered from',
        'p50 ms',
        'p99 ms',
        'answers correct',
        'read units (one read, metered)',
        'charged',
      ],
      ranks.positions.map((p) => [
        p.board,
        p.position,
        p.requests.map((mix) => (mix === 'BatchGetItem x2' ? mix : `**${mix}**`)).join(' / ') +
          (p.settingReads > 0 ? ` (+ a GetItem of what the process remembers a minute, read again: ${p.settingReads} of the reads)` : ''),
        p.standings.join(' / '),
        p.p50Ms,
        p.p99Ms,
        p.wrong === 0 ? `${p.answers}/${p.answers}` : `**${p.answers - p.wrong}/${p.answers}** (${p.firstWrong})`,
        p.readUnits,
        p.charged,
      ]),
    ),
  );
}

function printRankKeeping(keeping: RankKeepingResult, report: BigBoardResult['report']) {
  console.log(
    `\nRank keeping on the kills board: the live head (head size ${keeping.headSize.toLocaleString('en')}) given batches of changes as the stream gives them (before: the standing the head holds; after: 1-5 points up), units counted by bench/capacity-meter.ts\n`,
  );
  console.log(
    table(
      [
        'changes drawn from',
        'batch',
        'batches',
        'changes reaching the head',
        'ms per batch (meter on)',
        'requests per batch',
        'write units per batch',
        'read units per batch',
        'write units per change',
        'read units per change',
        'head pages before -> after',
      ],
      keeping.head.map((h) => [
        h.workload,
        h.batchSize,
        h.batches,
        `${h.reachedHead} of ${h.batchSize * h.batches}`,
        h.msPerBatch,
        Object.entries(h.requestsPerBatch)
          .map(([name, n]) => `${name} x${n}`)
          .join(', '),
        h.writeUnitsPerBatch,
        h.readUnitsPerBatch,
        h.writeUnitsPerChange,
        h.readUnitsPerChange,
        `${h.headPagesBefore} -> ${h.headPagesAfter}`,
      ]),
    ),
  );
  const s = keeping.snapshot;
  console.log(
    `\nOne snapshot of the kills board after ${s.changes.toLocaleString('en')} changes since the last (60,000 are a minute at 1,000 reports a second): the season read whole (readSeasonScores, ${s.itemsRead.toLocaleString('en')} score items, eventually consistent) and the board's pages written (writeSnapshot); seconds with the meter off; write units counted with it, read units by its rules on the items each of the read's ${s.queries} Queries returned\n`,
  );
  console.log(
    table(
      ['step', 'seconds', 'write units', 'read units', 'pages written / kept'],
      [
        ['read the season whole', s.readSeconds, 0, s.readUnits, '-'],
        ['sort the standings', s.sortSeconds, 0, 0, '-'],
        ['write the snapshot', s.writeSeconds, s.writeUnits, s.writeReadUnits, `${s.pagesWritten} / ${s.pagesKept}`],
        [`delete the ${s.pagesRetired} pages it retired (after the grace)`, s.deleteSeconds, s.deleteUnits, 0, '-'],
        [
          `snapshot in all (writeSnapshot's own figure: ${s.estimatedUnits} write units)`,
          s.seconds,
          s.writeUnits + s.deleteUnits,
          round(s.readUnits + s.writeReadUnits, 1),
          '-',
        ],
      ],
    ),
  );
  console.log(
    `\nUnits rank keeping adds to a report of kills and wins (four boards: kills and wins of the week and the month, each taken as large as this one): the head's units per change x 4, and a snapshot of each board a minute (its pages written and its retired pages deleted x 4, the season read x 2) over the minute's reports; beside the report's own (one addWin measured on the loaded board: ${report.write} write, ${report.read} read; ${report.charged})\n`,
  );
  console.log(
    table(
      [
        'reports/s',
        'changes drawn from',
        'head batch',
        'head write/report',
        'snapshot write/report',
        'rank keeping write/report',
        'head read/report',
        'snapshot read/report',
        'rank keeping read/report',
        'report write + rank keeping write',
      ],
      keeping.perReport.map((p) => [
        p.reportsPerSecond.toLocaleString('en'),
        p.workload,
        p.batchSize,
        p.headWrite,
        p.snapshotWrite,
        p.rankWrite,
        p.headRead,
        p.snapshotRead,
        p.rankRead,
        round(p.reportWrite + p.rankWrite, 2),
      ]),
    ),
  );
}

function printRankStreamLoad(load: RankStreamLoadResult) {
  console.log(
    `\n## 8. Rank keeping under the partition limit (one game of ${load.shards} shards, addWin reports of ${load.players.toLocaleString('en')} players moving all four boards, ${config.scalingConcurrency} callers for ${load.seconds} s, the stream drained into the heads all along (heads of ${load.headSize.toLocaleString('en')}); DynamoDB's per-partition write limit emulated at ${load.limit} writes/s for reports and heads)\n`,
  );
  console.log(
    table(
      [
        'sent',
        'accepted/s',
        'x limit',
        '503 (throttled)',
        'other',
        'records applied',
        'passes failed (retried)',
        'head transactions/s per board',
        'changes per transaction',
        'hottest partition writes/s',
        'hottest head partition writes/s',
        'catch-up s',
        'heads exact',
      ],
      [
        [
          load.sent,
          load.acceptedPerSecond,
          load.ofLimit,
          load.throttled503,
          load.other,
          load.records,
          load.failedPasses,
          Object.entries(load.headTransactionsPerSecond)
            .map(([board, n]) => `${board} ${n}`)
            .join(', '),
          load.changesPerTransaction,
          `${load.hottestPerSecond}${load.hottestPerSecond > load.limit ? ' **OVER**' : ''} (\`${load.hottestPartition}\`)`,
          load.hottestHeadPerSecond,
          load.catchUpSeconds,
          load.headsExact ? 'yes' : '**NO**',
        ],
      ],
    ),
  );
  console.log(
    `\n${load.heads.map((h) => `${h.board}: ${h.inHead} of ${h.players} standings in the head${h.cutoff ? ' (trimmed to a cutoff)' : ''}, ${h.exact ? 'exact' : `**${h.firstWrong}**`}`).join('; ')}`,
  );
  const league = load.league;
  console.log(
    `\nThe week's league, placed by the same consumer: ${league.placed} of ${league.players} players in ${league.cohorts} cohorts, the fullest holding ${league.fullest}: ${league.exact ? 'each player once, none overfilled' : '**NOT EXACT**'}`,
  );
}

function printScaling(scaling: ScalingResult[]) {
  console.log(
    `\n## 6. Board shards under the partition limit (one game's addWin reports, ${config.scalingConcurrency} callers for ${config.scalingSeconds} s per K, DynamoDB's per-partition write limit emulated at ${config.partitionLimit} writes/s)\n`,
  );
  console.log(
    table(
      ['K', 'sent', 'accepted/s', 'x limit', '503 (throttled)', 'other', 'hottest partition writes/s', 'totals exact'],
      scaling.map((s) => [s.shards, s.sent, s.acceptedPerSecond, s.ofLimit, s.throttled503, s.other, s.hottestPerSecond, s.totalsExact ? 'yes' : '**NO**']),
    ),
  );
}

function printBundles(bundles: BundleResult[]) {
  console.log(
    `\n## 1. Bundles and cold start (median of ${config.coldRuns} fresh node processes each; first response: import + one request answered, beside the floor answering the same request with the same DynamoDB requests; budget <= ${budgets.firstResponseRatio}x)\n`,
  );
  console.log(
    table(
      [
        'bundle',
        'first request',
        'entry KB',
        'static KB',
        'all chunks KB',
        'cold init ms',
        'x floor',
        'first response ms',
        'floor ms',
        'x floor',
        'budget',
        'top packages of the entry (KB)',
      ],
      bundles.map((b) => [
        b.name,
        b.firstRequest,
        b.kb,
        b.staticKb,
        b.totalKb,
        b.coldInitMs,
        b.coldInitRatio,
        b.firstResponseMs,
        b.name === 'floor' ? '-' : b.floorFirstResponseMs,
        b.firstResponseRatio,
        b.name === 'floor' ? '-' : mark(b.pass),
        b.top.map((t) => `${t.package} ${t.kb}`).join(', '),
      ]),
    ),
  );
}

/** `ok`, or how far above (or below) its minimum a call's write and read units are: `**ABOVE** w +3, r +0.5`. */
function unitsCheck(write: number, read: number): string {
  const parts = (sign: 1 | -1) =>
    [write * sign > 0 ? `w ${write > 0 ? '+' : ''}${round(write)}` : '', read * sign > 0 ? `r ${read > 0 ? '+' : ''}${round(read)}` : '']
      .filter(Boolean)
      .join(', ');
  const above = parts(1);
  const below = parts(-1);
  return [above && `**ABOVE** ${above}`, below && `**BELOW** ${below}`].filter(Boolean).join('; ') || 'ok';
}

/** A call's charges grouped by command and target: `TransactWriteItems update table 4, gsi1 2; GetItem 1`. */
function chargeSummary(charges: Charge[]): string {
  const groups = new Map<string, number>();
  for (const c of charges) {
    const name = `${c.command}${c.target === 'table' ? '' : ` ${c.target}`}`;
    groups.set(name, (groups.get(name) ?? 0) + c.write + c.read);
  }
  return [...groups].map(([name, units]) => `${name} ${round(units)}`).join(', ') || '-';
}

function printRequests(requests: RequestResult[], unbenched: string[]) {
  console.log('\n## 2. DynamoDB requests per call (steady state, DynamoDB Local)\n');
  console.log(
    table(
      ['operation', 'group', 'requests', 'minimum', 'check', 'commands', 'minimum because'],
      requests.map((r) => [
        r.operation,
        r.group,
        r.measured,
        r.minimum,
        r.status !== r.expectedStatus ? `**HTTP ${r.status}**` : r.measured === r.minimum ? 'ok' : r.measured > r.minimum ? '**ABOVE**' : '**BELOW**',
        Object.entries(r.commands)
          .map(([name, n]) => `${name} x${n}`)
          .join(', ') || '-',
        r.reason,
      ]),
    ),
  );
  console.log(
    "\nCapacity units per call, on DynamoDB's on-demand billing (bench/capacity.ts: 1 write unit per KB of each item written, the larger of before and after, twice in a transaction, plus each index entry written; 1 read unit per 4 KB read strongly consistent, half eventually consistent), beside the fewest the operation's guarantees need, and DynamoDB Local's own figure (`ReturnConsumedCapacity`)\n",
  );
  console.log(
    table(
      ['operation', 'requests', 'write units', 'minimum', 'read units', 'minimum', 'check', 'DynamoDB Local w / r', 'what was charged', 'minimum because'],
      requests.map((r) => {
        const u = r.units;
        return [
          r.operation,
          r.measured,
          u.write,
          u.minimum.write,
          u.read,
          u.minimum.read,
          unitsCheck(u.write - u.minimum.write, u.read - u.minimum.read),
          `${u.local.write} / ${u.local.read}`,
          chargeSummary(u.charges),
          u.minimum.why,
        ];
      }),
    ),
  );
  printFloors(requests);
  const above = requests.filter((r) => r.units.write > r.units.minimum.write || r.units.read > r.units.minimum.read);
  console.log(
    `\n${above.length} of ${requests.length} calls spend more units than their guarantees need (a finding, not yet a budget: docs/performance.md "What each operation costs").`,
  );
  console.log(
    `\nNot counted: ${Object.entries(notBenched)
      .map(([op, why]) => `${op} (${why})`)
      .join('; ')}.`,
  );
  if (unbenched.length) console.warn(`\nWARNING: operations of the route table with no entry in bench/operations.ts: ${unbenched.join(', ')}`);
}

/** The value-moving operations beside their floors (bench/operations.ts Floor; docs/performance.md "Money at the write floor"). */
function printFloors(requests: RequestResult[]) {
  const floored = requests.filter((r) => r.floor);
  console.log(
    `\nMoney at the write floor: each value-moving call's round trips (requests made one after another; in parallel, one), requests, items written and write units, beside the fewest its guarantees need; budget: no more round trips, at most ${FLOOR_WRITE_RATIO}x the write units\n`,
  );
  console.log(
    table(
      ['operation', 'round trips', 'fewest', 'requests', 'items written', 'write units', 'fewest', 'x fewest', 'budget', 'fewest because'],
      floored.map((r) => {
        const f = r.floor!;
        return [
          r.operation,
          r.sequential,
          f.roundTrips,
          r.measured,
          r.itemsWritten,
          r.units.write,
          f.write,
          round(r.units.write / f.write, 2),
          mark(f.within),
          f.why,
        ];
      }),
    ),
  );
}

function printFloorRatios(ratios: FloorRatio[]) {
  const r0 = ratios[0];
  if (!r0) return;
  console.log(
    `\nThe service beside the floor making the same calls (bench/warm-floor.ts) and a server making only the minimal DynamoDB call (bench/minimal-floor.ts: a deduction is one conditional UpdateItem, a report one UpdateItem; its own DynamoDB Local, its table with a stream), ${r0.connections} connections, ${r0.seconds} s of each in slices of ${r0.seconds / 2} s; budget: at least ${MIN_RATIO}x its requests a second, p99 at most ${MAX_P99_RATIO}x its p99\n`,
  );
  console.log(
    table(
      [
        'workload',
        'service req/s',
        'same calls req/s',
        'minimal req/s',
        'service x minimal',
        'same calls x minimal',
        'service p50 / p99 ms',
        'same calls p50 / p99 ms',
        'minimal p50 / p99 ms',
        'p99 x minimal',
        'errors',
        'invariants',
        'budget',
      ],
      ratios.map((r) => [
        r.workload,
        r.service.rps,
        r.same.rps,
        r.floor.rps,
        r.ratio,
        r.sameRatio,
        `${r.service.p50Ms} / ${r.service.p99Ms}`,
        `${r.same.p50Ms} / ${r.same.p99Ms}`,
        `${r.floor.p50Ms} / ${r.floor.p99Ms}`,
        r.p99Ratio,
        r.service.errors + r.same.errors + r.floor.errors + r.service.non2xx + r.same.non2xx,
        r.violations.length === 0 ? 'exact' : `**${r.violations.length} off** (${r.violations[0]})`,
        mark(r.pass),
      ]),
    ),
  );
}

function printWarm(warm: WarmResult[]) {
  const c = warm[0]?.load.concurrency ?? config.concurrency;
  console.log(`\n## 3. Warm Lambda handler vs floor (median latency of ${config.warmRequests} sequential requests; budget <= ${budgets.warmRatio}x)\n`);
  console.log(
    table(
      [
        'operation',
        'handler ms',
        'floor ms',
        'x floor',
        'budget',
        'CPU us/req handler / floor',
        `handler rps / p99 ms (c=${c})`,
        `floor rps / p99 ms (c=${c})`,
      ],
      warm.map((w) => [
        w.operation,
        w.appMedianMs,
        w.floorMedianMs,
        w.ratio,
        mark(w.pass),
        `${w.appCpuUsPerRequest} / ${w.floorCpuUsPerRequest} (${w.cpuRatio}x)`,
        `${w.load.app.rps} / ${w.load.app.p99Ms}`,
        `${w.load.floor.rps} / ${w.load.floor.p99Ms}`,
      ]),
    ),
  );
}

function printLoad(load: LoadResult[]) {
  const c = config.loadConcurrency;
  console.log(`\n## 4. Load with the conflict rule emulated (${c} concurrent callers, ${config.loadSeconds} s each, in process, DynamoDB Local)\n`);
  console.log(
    table(
      ['operation', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'transactions', 'cancelled', 'conflict rate', 'retries/request'],
      load.map((l) => [
        `${l.operation}${l.poolRanOut ? ` (pool ran out at ${l.seconds} s)` : ''}`,
        l.requests,
        l.rps,
        l.p50Ms,
        l.p99Ms,
        l.non2xx
          ? `**${l.non2xx}** (${Object.entries(l.statuses)
              .map(([s, n]) => `${s} x${n}`)
              .join(', ')})`
          : 0,
        l.transactions,
        l.cancelled,
        l.conflictRate,
        l.retriesPerRequest,
      ]),
    ),
  );
  console.log(
    `\nMost-written keys: an item taking w writes per request at R requests/s sees w·R writes/s. Flagged: w x ${PRODUCTION_RPS} req/s (the production rate assumed per operation) reaches ${ITEM_WRITE_LIMIT} writes/s.\n`,
  );
  console.log(
    table(
      ['operation', 'key', 'writes', 'writes/s here', 'writes/request', `at ${PRODUCTION_RPS} req/s`, 'flag', 'docs/performance.md'],
      load
        .flatMap((l) => l.items)
        .map((i) => [
          i.operation,
          `\`${i.key}\`${i.alike > 1 ? ` (hottest of ${i.alike} alike)` : ''}`,
          i.writes,
          i.writesPerSecond,
          i.writesPerRequest,
          i.atProduction,
          i.flagged ? '**>= limit**' : '-',
          i.flagged ? (i.documented ? `names \`${i.prefix}\`` : `**missing \`${i.prefix}\`**`) : '-',
        ]),
    ),
  );
}

function printHttpLoad(http: HttpLoadResult) {
  const floor = http.runs.find((r) => r.server === 'floor');
  console.log(
    `\n## 5. Load over HTTP on loopback (mixed: game_detail, addWin, minus_tickets, rechargeOrder; ${config.httpConnections} connections, ${config.httpSeconds} s each; autocannon)\n`,
  );
  console.log(
    table(
      ['server', 'requests', 'req/s', 'x floor', 'p50 ms', 'p99 ms', 'non-2xx', 'errors / timeouts', 'statuses per operation (warm-up and run)'],
      http.runs.map((r) => [
        r.server,
        r.requests,
        r.rps,
        r.server === 'floor' || !floor ? '-' : round(r.rps / floor.rps),
        r.p50Ms,
        r.p99Ms,
        r.non2xx ? `**${r.non2xx}**` : 0,
        `${r.errors} / ${r.timeouts}`,
        Object.entries(r.statuses)
          .map(
            ([op, statuses]) =>
              `${op} ${Object.entries(statuses)
                .map(([s, n]) => `${s} x${n}`)
                .join(' ')}`,
          )
          .join('; '),
      ]),
    ),
  );
  const { invariants } = http;
  console.log(
    `\nInvariants after the runs: ${invariants.checks} checks over ${invariants.callers} callers (ledger, tickets taken, orders, week and month scores): ` +
      (invariants.violations.length ? `**${invariants.violations.length} violated**\n${invariants.violations.map((v) => `- ${v}`).join('\n')}` : 'all hold'),
  );
}

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
      dynamo = await startDynamoLocal();
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
