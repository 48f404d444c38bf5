import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
import { reservePort } from './port-check.js';
import type { Started } from './serve.js';
import { readLocalSettings } from './settings.js';
import { StartRefused } from './start-refused.js';

/**
 * `npm start`: the embedded default. DynamoDB Local with its data under DATA_DIR, the table made from the
 * shared definition, every group under /v2-testing and the hero group under /hero-testing. With the AWS SDK's
 * standard AWS_ENDPOINT_URL_DYNAMODB set, the DynamoDB it names instead (one the user runs, in a container or
 * elsewhere; region and credentials from the SDK's usual variables): nothing is started or stopped, the table
 * is made there when it is missing.
 *
 * Before anything is started, the settings are read and checked (settings.ts), the port is checked free
 * (port-check.ts) and DATA_DIR is locked (data-dir-lock.ts): each refusal is a line naming what is wrong, and
 * leaves nothing running. Only then is the rest loaded and started (serve.ts), so a refusal answers in about a
 * second, before the service's modules load. Any later failure stops what was started (DynamoDB Local, the loops)
 * before exiting.
 */
const log = (line: string) => console.log(`[local] ${line}`);

let lock: DataDirLock | undefined;
const started: Started = { loops: [] };
/** Aborted by a stop during start-up: DynamoDB Local's start ends, and its Java process with it. */
const starting = new AbortController();
let exiting: Promise<void> | undefined;

/** Stops what was started, in order, releases DATA_DIR and exits with `code`; once, whoever asks first. */
function exit(code: number): Promise<void> {
  exiting ??= (async () => {
    starting.abort();
    const { server, loops, dynamo, devChain } = started;
    await new Promise<void>((done) => (server?.listening ? server.close(() => done()) : done()));
    await Promise.all(loops.map((loop) => loop.stop()));
    await Promise.all([dynamo?.stop(), devChain?.stop()]);
    lock?.release();
    process.exit(code);
  })();
  return exiting;
}

/** Prints why the start failed (a refusal's lines alone; anything else with its stack) and exits 1. */
function failed(error: unknown): Promise<void> {
  if (exiting) return exiting;
  if (error instanceof StartRefused) for (const line of error.lines) console.error(`[local] ${line}`);
  else console.error(error);
  return exit(1);
}

function stop(signal: string) {
  if (exiting) return;
  log(`${signal}: stopping`);
  void exit(0);
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

try {
  const settings = await readLocalSettings(process.env);
  const reserved = await reservePort(settings.host, settings.port);
  lock = lockDataDir(settings.dataDir);
  const { startServer } = await import('./serve.js');
  await startServer(settings, reserved, started, { signal: starting.signal, log, failed: (error) => void failed(error) });
} catch (error) {
  await failed(error);
}
