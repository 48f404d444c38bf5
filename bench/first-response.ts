import { execFile } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { basePathOf } from '../core/http/app.js';
import type { GroupName } from '../core/http/operation.js';
import { routeTable } from '../functions/routes/index.js';
import { apiEvent, type ApiEvent } from './events.js';
import type { DeployedFunction } from '../functions/deployed.js';
import { deployedEnv, type BenchDeps } from './fixtures.js';
import { operations, type OperationBench } from './operations.js';

const run = promisify(execFile);

/**
 * A cold start, as a new Lambda instance sees it: a fresh node process imports the bundle (cold init) and its
 * handler answers one API Gateway event (first response: the import, Deps built from the stage's settings,
 * the token verified, the table read). Each group is judged by one operation a first caller commonly sends,
 * taken from bench/operations.ts (its fixtures made before each process starts); the floor (bench/floor.ts)
 * answers the request of get_merchant_info, doing its work without ours.
 */
export const firstRequests: Record<GroupName | 'floor', string> = {
  floor: 'get_merchant_info',
  inner: 'get_merchant_info',
  outer: 'getNonce',
  withoutkey: 'query_social_bind',
  chain: 'rewrad_history',
  pay: 'game/tickets (player)',
  'third-pay': 'google_callback (test)',
  'partner-store': 'rank',
  hero: 'config_get',
  meta: 'jwks',
};

const entryOf = (label: string): OperationBench => {
  const entry = operations.find((e) => (e.label ?? e.op) === label);
  if (!entry) throw new Error(`bench/first-response.ts: bench/operations.ts has no entry labelled ${label}`);
  return entry;
};

/** A fresh request of the group's first operation (the floor's is get_merchant_info's, sent to its one route). */
async function firstEvent(deps: BenchDeps, name: string): Promise<{ event: ApiEvent; status: number }> {
  const entry = entryOf(firstRequests[name as GroupName | 'floor']);
  const request = await entry.prepare(deps);
  const spec = routeTable.find((g) => g.group === entry.group && g.base === (entry.base ?? 'main'))!.ops[entry.op]!;
  const path = spec.path.replace(/:(\w+)/g, (_, param: string) => encodeURIComponent(String(request.params?.[param])));
  const full = name === 'floor' ? '/' : `${basePathOf(entry.base ?? 'main', deps.stage)}${path}`;
  return { event: apiEvent(spec.method, full, request), status: spec.status };
}

/** Runs in the child: import the bundle, answer the event, print both times (from the start of the import). */
const childScript = (file: string) => `
const event = JSON.parse(process.env.BENCH_EVENT);
const t0 = performance.now();
const { handler } = await import(${JSON.stringify(pathToFileURL(file).href)});
const t1 = performance.now();
const answer = await handler(event, { functionName: 'bench', awsRequestId: 'bench', getRemainingTimeInMillis: () => 30000 });
console.log(JSON.stringify({ importMs: t1 - t0, firstMs: performance.now() - t0, status: answer.statusCode, body: String(answer.body ?? '').slice(0, 300) }));
`;

export interface ColdSample {
  importMs: number;
  firstMs: number;
}

/** One cold start of `file`'s handler in a fresh process, answering a fresh first request of `name`. */
export async function coldStart(deps: BenchDeps, name: string, file: string): Promise<ColdSample> {
  const { event, status } = await firstEvent(deps, name);
  const env = {
    ...process.env,
    ...deployedEnv(deps, name === 'floor' ? 'inner' : (name as DeployedFunction)),
    // As in Lambda: the request's metrics are written (core/platform/metrics.ts) before the answer returns.
    AWS_LAMBDA_FUNCTION_NAME: `bench-${name}`,
    BENCH_EVENT: JSON.stringify(event),
  };
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', childScript(file)], { env });
  const line = stdout.trim().split('\n').pop() ?? '';
  const result = JSON.parse(line) as ColdSample & { status: number; body: string };
  if (result.status !== status) throw new Error(`${name}: the first request answered ${result.status}, not ${status}: ${result.body}`);
  return { importMs: result.importMs, firstMs: result.firstMs };
}
