import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

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
 * rank-snapshots.ts, rank-pages.ts, day-figures.ts) on `event` the way Lambda does: in a fresh process, whose
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
    `const { handler } = await import(${JSON.stringify(resolve(entry))});`,
    `const result = await handler(${JSON.stringify(event)}, { getRemainingTimeInMillis: () => ${remainingMs} });`,
    `console.log(${JSON.stringify(marker)} + JSON.stringify(result));`,
  ].join('\n');
  const linked = Object.fromEntries(Object.entries(resources).map(([name, value]) => [`SST_RESOURCE_${name}`, JSON.stringify(value)]));
  // Only what a Lambda of the function would have: no SST resources of this process, no developer endpoint.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('SST_') && key !== 'AWS_ENDPOINT_URL_DYNAMODB'));
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
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
