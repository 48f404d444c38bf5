import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The operator console's built files (console/build.ts): its script and stylesheet. Deployed, infra builds them
 * and copies them beside the meta function's code, naming the folder in CONSOLE_ASSETS_DIR; the local server
 * builds them at start into a folder of its own and names it the same way. Each file is read, hashed and
 * gzipped once per process, on its first request.
 */
export const CONSOLE_FILES = {
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
} as const;
export type ConsoleFile = keyof typeof CONSOLE_FILES;

export interface ConsoleAsset {
  type: string;
  body: Uint8Array;
  gzipped: Uint8Array;
  /** The first 16 hex digits of the content's SHA-256: the `?v=` the page asks for. */
  version: string;
}

/** The folder the built files are in; undefined when the console was not built for this process. */
export const consoleAssetsDir = (env: NodeJS.ProcessEnv = process.env): string | undefined => env.CONSOLE_ASSETS_DIR || undefined;

const loaded = new Map<string, Promise<ConsoleAsset>>();

/** One built file, or a rejection when the console was not built (the caller answers 503). */
export function consoleAsset(file: ConsoleFile): Promise<ConsoleAsset> {
  const dir = consoleAssetsDir();
  if (!dir) return Promise.reject(new Error('CONSOLE_ASSETS_DIR is not set: the console was not built for this process'));
  const key = `${dir}\u0000${file}`;
  let asset = loaded.get(key);
  if (!asset) {
    asset = (async () => {
      const body = new Uint8Array(await readFile(join(dir, file)));
      const version = createHash('sha256').update(body).digest('hex').slice(0, 16);
      return { type: CONSOLE_FILES[file], body, gzipped: new Uint8Array(gzipSync(body, { level: 9 })), version };
    })();
    // A failed read (a missing file) is tried again on the next request, not remembered.
    asset.catch(() => loaded.delete(key));
    loaded.set(key, asset);
  }
  return asset;
}
