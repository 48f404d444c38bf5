import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ServedFile, servedFile } from './served-files.js';

/**
 * The operator console's built files (console/build.ts): its script and stylesheet. Deployed, infra builds them
 * and copies them beside the meta function's code, naming the folder in CONSOLE_ASSETS_DIR; the local server
 * builds them at start into a folder of its own and names it the same way. Each file is read, hashed and
 * gzipped once per process, on its first request (served-files.ts).
 */
export const CONSOLE_FILES = {
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
} as const;
export type ConsoleFile = keyof typeof CONSOLE_FILES;

/** The folder the built files are in; undefined when the console was not built for this process. */
export const consoleAssetsDir = (env: NodeJS.ProcessEnv = process.env): string | undefined => env.CONSOLE_ASSETS_DIR || undefined;

/** One built file, or a rejection when the console was not built (the caller answers 503). */
export function consoleAsset(file: ConsoleFile): Promise<ServedFile> {
  const dir = consoleAssetsDir();
  if (!dir) return Promise.reject(new Error('CONSOLE_ASSETS_DIR is not set: the console was not built for this process'));
  return servedFile(`${dir}\u0000${file}`, CONSOLE_FILES[file], async () => new Uint8Array(await readFile(join(dir, file))));
}
