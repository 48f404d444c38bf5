import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Where a running local server can be found (`npm start`): a file in DATA_DIR naming its process, its URL, its
 * DynamoDB (the embedded DynamoDB Local's endpoint, which changes at every start, or the one configured) and its
 * table. The admin CLI reads it, so that a command run beside `npm start` needs no `--endpoint` or `--table`
 * (tools/admin/cli.ts), and the quickstart's wallet finds the development chain in it. No secret is in it: DynamoDB Local takes any credentials. It is written once the table
 * is ready and removed when the server exits; a file whose process is gone is not read.
 */
export const SERVER_FILE = 'server.json';

export interface RunningServer {
  pid: number;
  /** The server's base URL, e.g. http://127.0.0.1:3000 */
  url: string;
  dynamodb: { endpoint: string; region: string };
  table: string;
  /** The development chain's GraphQL endpoint and faucet, when it runs (tools/local/dev-chain). */
  devChain?: { graphql: string; faucet: string };
}

/** Writes the file for this process; it is removed when the process exits, if it is still this process's. */
export function writeServerFile(dataDir: string, server: Omit<RunningServer, 'pid'>): void {
  const path = join(resolve(dataDir), SERVER_FILE);
  writeFileSync(path, `${JSON.stringify({ pid: process.pid, ...server }, null, 2)}\n`, { mode: 0o600 });
  process.once('exit', () => {
    try {
      if ((JSON.parse(readFileSync(path, 'utf8')) as RunningServer).pid === process.pid) unlinkSync(path);
    } catch {
      // Gone already.
    }
  });
}

/** The local server running on `dataDir`, or undefined when none is (no file, an unreadable one, its process gone). */
export function runningServer(dataDir: string): RunningServer | undefined {
  let found: RunningServer;
  try {
    found = JSON.parse(readFileSync(join(resolve(dataDir), SERVER_FILE), 'utf8')) as RunningServer;
  } catch {
    return undefined;
  }
  if (!Number.isSafeInteger(found.pid) || typeof found.table !== 'string' || typeof found.dynamodb?.endpoint !== 'string') return undefined;
  try {
    process.kill(found.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  return found;
}
