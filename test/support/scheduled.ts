import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleAsDeployed } from '../../bench/deployed-bundle.js';

/** A scheduled function's run: its handler given EventBridge Scheduler's event (see invokeLambda). */
export function invokeScheduled(
  entry: 'functions/jobs/indexer.ts' | 'functions/jobs/settlement.ts' | 'functions/jobs/deletions.ts' | 'functions/jobs/rank-snapshots.ts',
  resources: Record<string, unknown>,
  env: Record<string, string>,
  remainingMs = 60_000,
): Promise<{ result: unknown; output: string }> {
  return invokeLambda(entry, { source: 'aws.scheduler' }, resources, env, remainingMs);
}

/**
 * Runs the `handler` a deployed job exports (functions/jobs/: indexer.ts, settlement.ts, deletions.ts,
 * rank-snapshots.ts, rank-pages.ts, day-figures.ts) on `event` the way Lambda does: bundled as deployed, in a fresh process, whose
 * environment carries the function's linked SST resources as SST's `Resource` reads them (`SST_RESOURCE_<name>`:
 * JSON of the resource, node_modules/sst/dist/resource/shared.js) and DYNAMODB_ENDPOINT (functions/deployed.ts:
 * DynamoDB Local instead of the regional endpoint). The handler is given a context with `remainingMs` left.
 * Answers what the handler returned and what the process logged.
 */
export async function invokeLambda(
  entry:
    | 'functions/jobs/indexer.ts'
    | 'functions/jobs/settlement.ts'
    | 'functions/jobs/deletions.ts'
    | 'functions/jobs/rank-snapshots.ts'
    | 'functions/jobs/rank-pages.ts'
    | 'functions/jobs/day-figures.ts',
  event: unknown,
  resources: Record<string, unknown>,
  env: Record<string, string>,
  remainingMs = 60_000,
): Promise<{ result: unknown; output: string }> {
  const marker = '@@handler-result@@';
  const script = [
    `const { handler } = await import(${JSON.stringify(pathToFileURL(await bundled(entry)).href)});`,
    `const result = await handler(${JSON.stringify(event)}, { getRemainingTimeInMillis: () => ${remainingMs} });`,
    `console.log(${JSON.stringify(marker)} + JSON.stringify(result));`,
  ].join('\n');
  const linked = Object.fromEntries(Object.entries(resources).map(([name, value]) => [`SST_RESOURCE_${name}`, JSON.stringify(value)]));
  // Only what a Lambda of the function would have: no SST resources of this process, no developer endpoint.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('SST_') && key !== 'AWS_ENDPOINT_URL_DYNAMODB'));
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...inherited, ...linked, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  const line = output.split('\n').find((l) => l.startsWith(marker));
  if (code !== 0 || !line) throw new Error(`${entry} failed (exit ${code}):\n${output}`);
  return { result: JSON.parse(line.slice(marker.length)), output };
}

/** Where this process bundled each entry. */
const bundles = new Map<string, Promise<string>>();
let bundleDir: string | undefined;

/**
 * The entry bundled as infra deploys it (bench/deployed-bundle.ts), once per test process: a job's process then
 * loads one file, as Lambda does, where loading the sources through tsx took about 0.8 s a run.
 */
function bundled(entry: string): Promise<string> {
  let file = bundles.get(entry);
  if (!file) {
    bundleDir ??= mkdtempSync(join(tmpdir(), 'job-bundles-'));
    const outfile = join(bundleDir, basename(entry).replace(/\.ts$/, '.mjs'));
    file = bundleAsDeployed(resolve(entry), outfile).then(() => outfile);
    file.catch(() => bundles.delete(entry));
    bundles.set(entry, file);
  }
  return file;
}
