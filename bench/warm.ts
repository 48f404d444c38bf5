import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { basePathOf } from '../core/http/app.js';
import { innerRoutes } from '../functions/routes/index.js';
import { bundle } from './bundles.js';
import { merchantWithGames, type BenchDeps } from './fixtures.js';
import { median, percentile, round } from './stats.js';

/**
 * Warm cost per request through the deployed Lambda handler (the bundled `handler` of functions/<group>.ts,
 * its Deps built by functions/deployed.ts from SST_RESOURCE_* and DYNAMODB_ENDPOINT), against the floor
 * handlers of bench/warm-floor.ts, both driven with the same API Gateway v2 events against DynamoDB Local.
 */
type LambdaHandler = (event: ApiEvent, context: object) => Promise<{ statusCode: number; body?: string }>;
type ApiEvent = ReturnType<typeof apiEvent>;
type Fixture = Awaited<ReturnType<typeof merchantWithGames>>;

interface WarmBench {
  /** Also the key of its floor in bench/warm-floor.ts. */
  name: 'get_merchant_info' | 'game_detail';
  group: string;
  event: (stage: string, fixture: Fixture) => ApiEvent;
}

const mainPath = (stage: string, path: string) => `${basePathOf('main', stage)}${path}`;

const warmBenches: WarmBench[] = [
  {
    name: 'get_merchant_info',
    group: 'inner',
    event: (stage, f) => apiEvent('GET', mainPath(stage, innerRoutes.ops.get_merchant_info.path), { token: f.token }),
  },
  {
    name: 'game_detail',
    group: 'inner',
    event: (stage, f) => apiEvent('GET', mainPath(stage, innerRoutes.ops.game_detail.path), { query: { code: f.games[0]!.code } }),
  },
];

/** An API Gateway HTTP API (payload format 2.0) event, as the `$default` stage delivers it. */
function apiEvent(method: string, path: string, options: { token?: string; query?: Record<string, string> } = {}) {
  const host = 'bench.execute-api.us-east-1.amazonaws.com';
  const headers: Record<string, string> = { host, 'user-agent': 'bench', accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const routeKey = `${method} ${path}`;
  return {
    version: '2.0' as const,
    routeKey,
    rawPath: path,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers,
    ...(options.query ? { queryStringParameters: options.query } : {}),
    requestContext: {
      accountId: '123456789012',
      apiId: 'bench',
      domainName: host,
      domainPrefix: 'bench',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    isBase64Encoded: false,
  };
}

const lambdaContext = { functionName: 'bench', awsRequestId: 'bench', getRemainingTimeInMillis: () => 30_000 };

async function invoke(handler: LambdaHandler, event: ApiEvent): Promise<number> {
  const t0 = performance.now();
  const result = await handler(event, lambdaContext);
  const ms = performance.now() - t0;
  if (result.statusCode !== 200) throw new Error(`handler answered ${result.statusCode}: ${result.body?.slice(0, 300)}`);
  return ms;
}

/** Sequential requests: latency of each, and process CPU per request. */
async function sequential(handler: LambdaHandler, event: ApiEvent, count: number) {
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) latencies.push(await invoke(handler, event));
  const used = process.cpuUsage(cpu);
  return { latencies, cpuUs: (used.user + used.system) / count };
}

/** `concurrency` callers, each sending its next request when the previous answers, for `seconds`. */
async function load(handler: LambdaHandler, event: ApiEvent, concurrency: number, seconds: number) {
  const latencies: number[] = [];
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) latencies.push(await invoke(handler, event));
    }),
  );
  return { latencies, seconds: (performance.now() - start) / 1000 };
}

/** Load on both handlers in alternating slices, so that neither gets the warmer DynamoDB Local. */
async function compareUnderLoad(app: LambdaHandler, floor: LambdaHandler, event: ApiEvent, concurrency: number, seconds: number) {
  const slices = 4;
  const runs = { app: [] as Awaited<ReturnType<typeof load>>[], floor: [] as Awaited<ReturnType<typeof load>>[] };
  for (let i = 0; i < slices; i++) {
    const order = i % 2 ? (['floor', 'app'] as const) : (['app', 'floor'] as const);
    for (const side of order) runs[side].push(await load(side === 'app' ? app : floor, event, concurrency, seconds / slices));
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
  Object.assign(process.env, {
    SST_RESOURCE_App: JSON.stringify({ name: 'game-platform', stage: deps.stage }),
    SST_RESOURCE_Table: JSON.stringify({ name: deps.table }),
    SST_RESOURCE_Files: JSON.stringify({ name: 'bench-files' }),
    SST_RESOURCE_TokenSigningKey: JSON.stringify({ value: JSON.stringify(deps.signingKey) }),
    DYNAMODB_ENDPOINT: deps.endpoint,
  });

  const loaded = new Map<string, Promise<Record<string, unknown>>>();
  const importBundle = (name: string, entry: string) => {
    if (!loaded.has(name)) {
      const file = join(options.outDir, 'warm', name, `${name}.mjs`);
      loaded.set(name, bundle(entry, file).then(() => import(pathToFileURL(file).href)));
    }
    return loaded.get(name)!;
  };
  const floor = (await importBundle('floor', join(import.meta.dirname, 'warm-floor.ts'))).handlers as Record<string, LambdaHandler>;
  const fixture = await merchantWithGames(deps, 1);

  const results: WarmResult[] = [];
  for (const bench of warmBenches) {
    const app = (await importBundle(bench.group, join(import.meta.dirname, '..', 'functions', `${bench.group}.ts`))).handler as LambdaHandler;
    const base = floor[bench.name]!;
    const event = bench.event(deps.stage, fixture);

    // Warm up both (the first invocation builds Deps; JIT, here and in DynamoDB Local's JVM), then alternate
    // rounds so drift hits both alike.
    await load(app, event, options.concurrency, 0.5);
    await load(base, event, options.concurrency, 0.5);
    const rounds = 10;
    const perRound = Math.max(1, Math.round(options.requests / rounds));
    const appRuns: Awaited<ReturnType<typeof sequential>>[] = [];
    const floorRuns: typeof appRuns = [];
    for (let r = 0; r < rounds; r++) {
      if (r % 2) floorRuns.push(await sequential(base, event, perRound));
      appRuns.push(await sequential(app, event, perRound));
      if (!(r % 2)) floorRuns.push(await sequential(base, event, perRound));
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
      load: await compareUnderLoad(app, base, event, options.concurrency, options.seconds),
    });
  }
  return results;
}
