import type { BundleResult } from './bundles.js';
import { notBenched } from './operations.js';
import { FLOOR_WRITE_RATIO } from './operation-bench.js';
import type { HttpLoadResult } from './http-load.js';
import type { ItemCost } from './emulator-items.js';
import { type FloorRatio, MAX_P99_RATIO, MIN_RATIO, SAME_COST_RATIO, WARMUP_SECONDS } from './floor-ratios.js';
import { ITEM_WRITE_LIMIT, PRODUCTION_RPS, type LoadResult } from './load.js';
import type { RequestResult } from './requests.js';
import type { Charge } from './capacity-meter.js';
import { round } from './stats.js';
import type { WarmResult } from './warm.js';
import { budgets, config } from './bench-config.js';
import { mark, table } from './print-tables.js';

/** The bench's tables of bundles, requests and units, warm cost and load (parts 1 to 5), printed as markdown. */

/** Part 1: each group's bundle and cold start beside the floor's. */
export function printBundles(bundles: BundleResult[]) {
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
export function unitsCheck(write: number, read: number): string {
  const parts = (sign: 1 | -1) =>
    [write * sign > 0 ? `w ${write > 0 ? '+' : ''}${round(write)}` : '', read * sign > 0 ? `r ${read > 0 ? '+' : ''}${round(read)}` : '']
      .filter(Boolean)
      .join(', ');
  const above = parts(1);
  const below = parts(-1);
  return [above && `**ABOVE** ${above}`, below && `**BELOW** ${below}`].filter(Boolean).join('; ') || 'ok';
}

/** A call's charges grouped by command and target: `TransactWriteItems update table 4, gsi1 2; GetItem 1`. */
export function chargeSummary(charges: Charge[]): string {
  const groups = new Map<string, number>();
  for (const c of charges) {
    const name = `${c.command}${c.target === 'table' ? '' : ` ${c.target}`}`;
    groups.set(name, (groups.get(name) ?? 0) + c.write + c.read);
  }
  return [...groups].map(([name, units]) => `${name} ${round(units)}`).join(', ') || '-';
}

export function printRequests(requests: RequestResult[], unbenched: string[]) {
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
export function printFloors(requests: RequestResult[]) {
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

export function printFloorRatios(ratios: FloorRatio[]) {
  const r0 = ratios[0];
  if (!r0) return;
  console.log(
    `\nThe service beside the floor making the same calls (bench/warm-floor.ts) and a server making only the minimal DynamoDB call (bench/minimal-floor.ts: a deduction is one conditional UpdateItem, a report one UpdateItem; its own DynamoDB Local, its table with a stream), ${r0.connections} connections, each warmed ${WARMUP_SECONDS} s, then ${r0.seconds} s of each in slices of ${r0.seconds / 2} s. Budget: beside the same calls, at least ${round(1 / SAME_COST_RATIO, 2)}x their requests a second and a p99 at most ${SAME_COST_RATIO}x theirs (part 3's ${SAME_COST_RATIO}x cost per request). Beside the minimal call, the mark first asked (${MIN_RATIO}x its requests a second, p99 at most ${MAX_P99_RATIO}x) is a measure of what DynamoDB Local charges for the guarantees' calls (docs/performance.md)\n`,
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
        'service x same calls: req/s; p99',
        `${MIN_RATIO}x minimal (measure)`,
        'errors',
        'invariants',
        'budget (same calls)',
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
        `${r.sameServiceRatio.rps}; ${r.sameServiceRatio.p99}`,
        r.minimalMark ? 'reached' : '**not reached**',
        r.service.errors + r.same.errors + r.floor.errors + r.service.non2xx + r.same.non2xx,
        r.violations.length === 0 ? 'exact' : `**${r.violations.length} off** (${r.violations[0]})`,
        mark(r.pass),
      ]),
    ),
  );
}

export function printItemCosts(costs: ItemCost[]) {
  console.log(
    `\n## 10. What one more item, or a transaction, costs DynamoDB Local (bench/emulator-items.ts: the minimal floor's call, and the same with one item more or in a transaction, each connection its own player, each path warmed ${WARMUP_SECONDS} s, then slices alternating with the minimal call)\n`,
  );
  console.log(
    table(
      ['workload', 'beside the minimal call', 'minimal req/s', 'with it req/s', 'x minimal', 'p99 ms: minimal, with it', 'non-2xx and errors'],
      costs.map((c) => [c.workload, `${c.what} (${c.variant})`, c.minimalRps, c.variantRps, c.ratio, `${c.minimalP99Ms}, ${c.variantP99Ms}`, c.failures]),
    ),
  );
}

export function printWarm(warm: WarmResult[]) {
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

export function printLoad(load: LoadResult[]) {
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

export function printHttpLoad(http: HttpLoadResult) {
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
