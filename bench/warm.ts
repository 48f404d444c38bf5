import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { basePathOf } from '../core/http/app.js';
import type { GroupName, OperationSpec } from '../core/http/operation.js';
import { innerRoutes } from '../functions/routes/inner.js';
import { boardsRoutes } from '../functions/routes/boards.js';
import { payRoutes } from '../functions/routes/pay.js';
import { bundle } from './bundles.js';
import {
  deployedEnv,
  giveTickets,
  merchantWithGames,
  playerWithTokens,
  rechargeBody,
  shardedGameWithScores,
  shopWithLevel,
  type BenchDeps,
} from './fixtures.js';
import type { handlers as floorHandlers } from './warm-floor.js';
import { median, percentile, round } from './stats.js';
import { apiEvent, lambdaContext, type ApiEvent, type RequestParts } from './events.js';

/**
 * Warm cost per request through the deployed Lambda handler (the bundled `handler` of functions/<group>.ts,
 * its Deps built by functions/deployed.ts from SST_RESOURCE_* and DYNAMODB_ENDPOINT), against the floor
 * handlers of bench/warm-floor.ts, both driven with the same API Gateway v2 events against DynamoDB Local.
 */
type LambdaHandler = (event: ApiEvent, context: object) => Promise<{ statusCode: number; body?: string }>;

interface WarmBench {
  /** Also the key of its floor in bench/warm-floor.ts. */
  name: keyof typeof floorHandlers;
  group: GroupName;
  spec: OperationSpec;
  /**
   * Makes the fixtures (outside the timing) and returns one request per concurrent caller; the sequential
   * runs send the first. A caller sends its request again and again, so it must be able to run again: a
   * read, or a write that adds (a new order) or takes from a balance that lasts.
   */
  requests: (deps: BenchDeps, callers: number) => Promise<RequestParts[]>;
}

/** The request's event as the deployed API delivers it, for an operation of the main base. */
const eventOf = (stage: string, spec: OperationSpec, request: RequestParts) => apiEvent(spec.method, `${basePathOf('main', stage)}${spec.path}`, request);

const repeat = <T>(value: T, count: number) => Array.from({ length: count }, () => value);

const warmBenches: WarmBench[] = [
  {
    name: 'get_merchant_info',
    group: 'inner',
    spec: innerRoutes.ops.get_merchant_info,
    requests: async (deps, callers) => repeat({ token: (await merchantWithGames(deps, 1)).token }, callers),
  },
  {
    name: 'game_detail',
    group: 'inner',
    spec: innerRoutes.ops.game_detail,
    requests: async (deps, callers) => repeat({ query: { code: (await merchantWithGames(deps, 1)).games[0]!.code } }, callers),
  },
  {
    // The project's game server takes 1 ticket per request, without an Idempotency-Key: each request is a
    // new deduction (the operation keys its ledger entry with a fresh id, as with a fresh key per request).
    // Each concurrent caller debits its own player (10^9 tickets, so no run goes short): concurrent debits
    // of one balance would measure transaction conflicts, not the handler.
    name: 'minus_tickets',
    group: 'pay',
    spec: payRoutes.ops.minus_tickets,
    requests: async (deps, callers) => {
      const shop = await shopWithLevel(deps);
      const projectName = shop.project.project_name;
      return Promise.all(
        Array.from({ length: callers }, async () => {
          const player = await playerWithTokens(deps);
          await giveTickets(deps, player.uid, projectName, 1, 1e9);
          return { token: shop.server, body: { userId: player.uid, projectName, level: 1, amount: 1 } };
        }),
      );
    },
  },
  {
    // A new pending order per request (prevId -1): one player may make any number of them.
    name: 'rechargeOrder',
    group: 'pay',
    spec: payRoutes.ops.rechargeOrder,
    requests: async (deps, callers) => {
      const shop = await shopWithLevel(deps);
      const player = await playerWithTokens(deps);
      return repeat({ token: player.platform, body: rechargeBody(shop, player) }, callers);
    },
  },
  {
    // A game whose seasons have 16 board shards, 200 players on its boards with distinct scores and the boards'
    // heads kept: each request reads the four boards' top items in one BatchGetItem, whatever the shards.
    name: 'gameRank16',
    group: 'boards',
    spec: boardsRoutes.ops.gameRank,
    requests: async (deps, callers) => {
      const game = await shardedGameWithScores(deps, 16, 200);
      return repeat({ query: { game_code: game } }, callers);
    },
  },
];

/** What every request of one bench sends (`events[i]` by caller i) and must answer. */
interface Workload {
  events: ApiEvent[];
  status: number;
}

async function invoke(handler: LambdaHandler, event: ApiEvent, status: number): Promise<number> {
  const t0 = performance.now();
  const result = await handler(event, lambdaContext);
  const ms = performance.now() - t0;
  if (result.statusCode !== status) throw new Error(`handler answered ${result.statusCode}, not ${status}: ${result.body?.slice(0, 300)}`);
  return ms;
}

/** Sequential requests (the first caller's event): latency of each, and process CPU per request. */
async function sequential(handler: LambdaHandler, work: Workload, count: number) {
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) latencies.push(await invoke(handler, work.events[0]!, work.status));
  const used = process.cpuUsage(cpu);
  return { latencies, cpuUs: (used.user + used.system) / count };
}

/** `concurrency` callers, each sending its next request when the previous answers, for `seconds`. */
async function load(handler: LambdaHandler, work: Workload, concurrency: number, seconds: number) {
  const latencies: number[] = [];
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, caller) => {
      const event = work.events[caller % work.events.length]!;
      while (performance.now() < end) latencies.push(await invoke(handler, event, work.status));
    }),
  );
  return { latencies, seconds: (performance.now() - start) / 1000 };
}

/** Load on both handlers in alternating slices, so that neither gets the warmer DynamoDB Local. */
async function compareUnderLoad(app: LambdaHandler, floor: LambdaHandler, work: Workload, concurrency: number, seconds: number) {
  const slices = 4;
  const runs = { app: [] as Awaited<ReturnType<typeof load>>[], floor: [] as Awaited<ReturnType<typeof load>>[] };
  for (let i = 0; i < slices; i++) {
    const order = i % 2 ? (['floor', 'app'] as const) : (['app', 'floor'] as const);
    for (const side of order) runs[side].push(await load(side === 'app' ? app : floor, work, concurrency, seconds / slices));
  }
  const summary = (all: Awaited<ReturnType<typeof load>>[]) => {
    const latencies = all.flatMap((r) => r.latencies);
    const elapsed = all.reduce((sum, r) => sum + r.seconds, 0);
    return { rps: round(latencies.length / elapsed, 0), p50Ms: round(percentile(latencies, 50)), p99Ms: round(percentile(latencies, 99)) };
  };
  return { concurrency, seconds, app: summary(runs.app), floor: summary(runs.floor) };
}

export interface WarmResult {
  operation: string;
  group: string;
  appMedianMs: number;
  floorMedianMs: number;
  ratio: number;
  pass: boolean;
  appCpuUsPerRequest: number;
  floorCpuUsPerRequest: number;
  cpuRatio: number;
  load: Awaited<ReturnType<typeof compareUnderLoad>>;
}

export async function benchWarm(
  deps: BenchDeps,
  options: { outDir: string; requests: number; concurrency: number; seconds: number; budget: number },
): Promise<WarmResult[]> {
  // Configure the deployed handlers (functions/deployed.ts reads these lazily, on the first invocation).
  Object.assign(process.env, deployedEnv(deps));

  const loaded = new Map<string, Promise<Record<string, unknown>>>();
  const importBundle = (name: string, entry: string) => {
    if (!loaded.has(name)) {
      const file = join(options.outDir, 'warm', name, `${name}.mjs`);
      loaded.set(
        name,
        bundle(entry, file).then(() => import(pathToFileURL(file).href)),
      );
    }
    return loaded.get(name)!;
  };
  const floor = (await importBundle('floor', join(import.meta.dirname, 'warm-floor.ts'))).handlers as Record<string, LambdaHandler>;

  const results: WarmResult[] = [];
  for (const bench of warmBenches) {
    const app = (await importBundle(bench.group, join(import.meta.dirname, '..', 'functions', `${bench.group}.ts`))).handler as LambdaHandler;
    const base = floor[bench.name]!;
    const requests = await bench.requests(deps, options.concurrency);
    const work: Workload = { events: requests.map((request) => eventOf(deps.stage, bench.spec, request)), status: bench.spec.status };

    // Warm up both (the first invocation builds Deps; JIT, here and in DynamoDB Local's JVM), then alternate
    // rounds so drift hits both alike.
    await load(app, work, options.concurrency, 0.5);
    await load(base, work, options.concurrency, 0.5);
    const rounds = 10;
    const perRound = Math.max(1, Math.round(options.requests / rounds));
    const appRuns: Awaited<ReturnType<typeof sequential>>[] = [];
    const floorRuns: typeof appRuns = [];
    for (let r = 0; r < rounds; r++) {
      if (r % 2) floorRuns.push(await sequential(base, work, perRound));
      appRuns.push(await sequential(app, work, perRound));
      if (!(r % 2)) floorRuns.push(await sequential(base, work, perRound));
    }
    const appMedian = median(appRuns.flatMap((x) => x.latencies));
    const floorMedian = median(floorRuns.flatMap((x) => x.latencies));
    const appCpu = median(appRuns.map((x) => x.cpuUs));
    const floorCpu = median(floorRuns.map((x) => x.cpuUs));

    results.push({
      operation: bench.name,
      group: bench.group,
      appMedianMs: round(appMedian, 3),
      floorMedianMs: round(floorMedian, 3),
      ratio: round(appMedian / floorMedian),
      pass: appMedian / floorMedian <= options.budget,
      appCpuUsPerRequest: round(appCpu, 0),
      floorCpuUsPerRequest: round(floorCpu, 0),
      cpuRatio: round(appCpu / floorCpu),
      load: await compareUnderLoad(app, base, work, options.concurrency, options.seconds),
    });
  }
  return results;
}
