import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeEndedRunFolders, runFolder } from './transaction-journal.js';

/**
 * The service's logs over a whole test run (docs/security.md "Secrets in logs and responses";
 * test/server-logs.test.ts reads them): everything the test processes write to stdout and stderr, which is where the
 * service's logger writes (Powertools' logger keeps a Console of its own on process.stdout and process.stderr;
 * product code has no other output). The tests' own console.log goes through vitest's console and is not in it. Each
 * test process appends to its own file in a folder of the run, named after the run's main process, like the
 * transaction journal (test/support/transaction-journal.ts).
 */
const PREFIX = 'server-logs-';
const INSTALLED = Symbol.for('game-platform.server-log-capture');

export const serverLogDir = () => runFolder(PREFIX);

/** Copies every write to stdout and stderr of this process into its file in `dir` (once per process). */
export function captureServerLogs(dir: string): void {
  const global = globalThis as Record<symbol, unknown>;
  if (global[INSTALLED]) return;
  global[INSTALLED] = true;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.pid}.log`);
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      appendFileSync(file, typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array));
      return write(chunk, ...rest);
    }) as typeof stream.write;
  }
}

/** Every line captured in `dir`, with the process file it came from. */
export function readServerLogs(dir: string): { file: string; line: string }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((file) =>
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => ({ file, line })),
  );
}

/** Removes the folders of runs whose main process has ended. */
export const removeEndedRunLogs = () => removeEndedRunFolders(PREFIX);
