import { execFile } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { basePathOf } from '../core/http/app.js';
import type { GroupName } from '../core/http/operation.js';
import type { DeployedFunction } from '../functions/deployed.js';
import type { DynamoProxy } from '../test/support/dynamo-proxy.js';
import { apiEvent, type ApiEvent } from './events.js';
import { type BenchDeps, deployedEnv } from './fixtures.js';
import { operations } from './operations.js';
import type { OperationBench } from './operation-bench.js';
import { specOf, withParams } from './requests.js';

const run = promisify(execFile);

/**
 * A cold start, as a new Lambda instance sees it: a fresh node process imports the bundle (cold init) and its
 * handler answers one API Gateway event (first response: the import, Deps built from the resources infra links
 * to the function, the token verified, the table read, the request's metrics written). Each group is judged by
 * one operation a first caller commonly sends, taken from bench/operations.ts (its fixtures made before each
 * process starts), and `verify` says which bearer token that request carries.
 *
 * The floor (bench/floor.ts) answers the same request in a fresh process of its own, making the same DynamoDB
 * requests the group's function made (recorded by a proxy both talk to) and verifying the same token, with none
 * of our code: so the ratio is what our code costs a cold start, as the warm measure's floor is (the same
 * DynamoDB calls, no framework). How many requests an operation makes is part 2's budget.
 */
export const firstRequests: Record<DeployedFunction & GroupName, { label: string; verify: 'platform' | 'google' | 'none' }> = {
  inner: { label: 'get_merchant_info', verify: 'platform' },
  boards: { label: 'addWin', verify: 'platform' },
  'admin-console': { label: 'stage_overview (14 days, the default)', verify: 'platform' },
  outer: { label: 'getNonce', verify: 'none' },
  withoutkey: { label: 'query_social_bind', verify: 'platform' },
  chain: { label: 'rewrad_history', verify: 'platform' },
  pay: { label: 'game/tickets (player)', verify: 'platform' },
  'third-pay': { label: 'google_callback (test)', verify: 'google' },
  'partner-store': { label: 'rank', verify: 'none' },
  hero: { label: 'config_get', verify: 'none' },
  meta: { label: 'jwks', verify: 'none' },
};

const entryOf = (label: string): OperationBench => {
  const entry = operations.find((e) => (e.label ?? e.op) === label);
  if (!entry) throw new Error(`bench/first-response.ts: bench/operations.ts has no entry labelled ${label}`);
  return entry;
};

/** A fresh request of the group's first operation. */
async function firstEvent(deps: BenchDeps, group: keyof typeof firstRequests): Promise<{ event: ApiEvent; status: number }> {
  const entry = entryOf(firstRequests[group].label);
  const request = await entry.prepare(deps);
  const spec = specOf(entry);
  return {
    event: apiEvent(spec.method, `${basePathOf(entry.base ?? 'main', deps.stage)}${withParams(spec.path, request.params)}`, request),
    status: spec.status,
  };
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

async function child(file: string, env: NodeJS.ProcessEnv, what: string, status: number): Promise<ColdSample> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', childScript(file)], { env });
  const result = JSON.parse(stdout.trim().split('\n').pop() ?? '') as ColdSample & { status: number; body: string };
  if (result.status !== status) throw new Error(`${what}: the first request answered ${result.status}, not ${status}: ${result.body}`);
  return { importMs: result.importMs, firstMs: result.firstMs };
}

/**
 * One cold start of the group's bundle answering a fresh first request, then one of the floor's answering the
 * same request with the DynamoDB requests the group's function made. Both talk to the table through `proxy`.
 */
export async function coldStarts(deps: BenchDeps, proxy: DynamoProxy, group: keyof typeof firstRequests, files: { group: string; floor: string }) {
  const { event, status } = await firstEvent(deps, group);
  const env = {
    ...process.env,
    ...deployedEnv(deps, group),
    DYNAMODB_ENDPOINT: proxy.endpoint,
    // As in Lambda: the request's metrics are written (core/platform/metrics.ts) before the answer returns.
    AWS_LAMBDA_FUNCTION_NAME: `bench-${group}`,
    BENCH_EVENT: JSON.stringify(event),
  };
  proxy.reset();
  const ours = await child(files.group, env, group, status);
  const calls = JSON.stringify(proxy.requests);
  const floor = await child(files.floor, { ...env, BENCH_CALLS: calls, BENCH_VERIFY: firstRequests[group].verify }, `floor of ${group}`, 200);
  return { group: ours, floor };
}
