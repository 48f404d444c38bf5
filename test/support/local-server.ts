import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { freePort } from '../../tools/local/dynamo.js';
import { dynamoEndpoint } from './deps.js';
import { KIT_PACKAGE } from './payment-kit.js';

/**
 * `npm start` as a child process (tools/local/server.ts, as test/local-server.test.ts runs it): the real
 * entry with the environment given, nothing else. Resolves once /v2-testing/health answers 200.
 */
export interface LocalServer {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  base: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, and its exit code once it has exited. */
  stop(): Promise<number | null>;
}

const started: ChildProcess[] = [];

/** How long a start may take before the server is stopped and the start fails. */
const START_LIMIT_MS = 90_000;

export async function startLocalServer(env: Record<string, string>): Promise<LocalServer> {
  // A PORT given is kept (a server started again where its clients know it), else a free one.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'tools/local/server.ts'], {
    // A developer's own AWS_ENDPOINT_URL_DYNAMODB would turn the embedded DynamoDB Local off: empty unless given.
    env: { ...process.env, PORT: String(port), AWS_ENDPOINT_URL_DYNAMODB: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  const began = Date.now();
  const deadline = began + START_LIMIT_MS;
  for (;;) {
    // Each probe is bounded: a connection that is accepted and never answered must not outlast the deadline.
    const health = await fetch(`${base}/v2-testing/health`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
    if (health?.status === 200) break;
    const exited = child.exitCode !== null || child.signalCode !== null;
    if (exited || Date.now() > deadline) {
      // Which way it failed, so that a failure in CI says whether the server gave up or was given up on.
      const why = exited
        ? `it exited (code ${child.exitCode}, signal ${child.signalCode}) after ${Date.now() - began} ms`
        : `it did not answer within ${START_LIMIT_MS} ms, and was stopped`;
      await stopChild(child);
      throw new Error(`server did not start: ${why}:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    child,
    base,
    output: () => output,
    stop() {
      const exited = new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * `npm start` with the environment given, run to its end: a start that must be refused. Its exit code and
 * everything it wrote; one still running after `timeoutMs` is stopped (SIGTERM, then SIGKILL) and its code is
 * null.
 */
export async function runLocalServerToExit(env: Record<string, string>, timeoutMs = 45_000): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tools/local/server.ts'], {
    env: { ...process.env, AWS_ENDPOINT_URL_DYNAMODB: '', SEED_ADMIN_EMAIL: '', SEED_ADMIN_PASSWORD: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const timer = setTimeout(() => void stopChild(child), timeoutMs);
  const code = await exited;
  clearTimeout(timer);
  return { code, output };
}

/**
 * The ids of the processes whose command line holds `text` (Linux's /proc): a DynamoDB Local started for a
 * DATA_DIR names its folder in its `-dbPath`, so none may remain once the server that started it has exited.
 */
export function processesNaming(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes(text);
      } catch {
        // The process ended while the list was read.
        return false;
      }
    })
    .map(Number);
}

/**
 * Stops every server still running (an afterAll of the test files that start them): SIGTERM, so that it stops
 * the DynamoDB Local it started (killed at once, that Java process would outlive the run), then SIGKILL for one
 * that has not exited within 10 s.
 */
export async function killLocalServers() {
  await Promise.all(started.map(stopChild));
}

/** SIGTERM, so that it stops the DynamoDB Local it started, then SIGKILL when it has not exited within 10 s. */
async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * The settings that keep a server's table in this worker's DynamoDB Local (test/support/deps.ts) instead of an
 * embedded one of its own, for the files whose subject is not the embedded DynamoDB Local: a start needs no Java
 * process (about 3 s instead of 8 on an idle machine), and the run keeps one DynamoDB Local per worker. The table
 * is named after DATA_DIR, so a server started again on the same data finds its table.
 */
export function onWorkersDynamo(dataDir: string): Record<string, string> {
  const table = `npm-start-${createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16)}`;
  return { AWS_ENDPOINT_URL_DYNAMODB: dynamoEndpoint(), DYNAMODB_TABLE: table };
}

/**
 * The settings of `npm start` with its demo data (a merchant and its games), payments through the Payment Kit on
 * the suite's loopback Sui GraphQL server at `chainUrl`, indexed every 200 ms.
 */
export function demoServerEnv(dataDir: string, chainUrl: string, more: Record<string, string> = {}): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    ...onWorkersDynamo(dataDir),
    CHAIN_CONFIG: JSON.stringify({ kind: 'graphql', url: chainUrl, paymentKit: { packageId: KIT_PACKAGE, registry: 'default-payment-registry' } }),
    INDEXER_INTERVAL_MS: '200',
    SEED_ADMIN_EMAIL: '',
    SEED_ADMIN_PASSWORD: '',
    ...more,
  };
}

export interface HttpResult {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** One JSON request to a running server. */
export async function request(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; query?: Record<string, string | number> } = {},
): Promise<HttpResult> {
  const query = options.query ? `?${new URLSearchParams(Object.entries(options.query).map(([k, v]): [string, string] => [k, String(v)]))}` : '';
  const res = await fetch(`${base}${path}${query}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body };
}

/** The structured log lines (JSON, core/platform/log.ts) a process wrote, parsed. */
export function logLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}
