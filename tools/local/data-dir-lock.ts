import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StartRefused } from './start-refused.js';

/** The lock's file in DATA_DIR: the process id of the server that holds the folder. */
export const LOCK_FILE = 'server.lock';

export interface DataDirLock {
  path: string;
  /** Removes the lock, if it is still this process's. */
  release(): void;
}

/**
 * One server per DATA_DIR: two would open the same DynamoDB Local files and write the same key files. The lock
 * is a file in the folder holding the server's process id, made only where none is (an exclusive create), and
 * removed when the server exits, whichever way it exits. A lock whose process is gone (a server killed
 * outright, or a container's earlier run with this very id) is stale, and is taken over.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const folder = resolve(dataDir);
  const path = join(folder, LOCK_FILE);
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    throw new StartRefused([`DATA_DIR: ${folder} cannot be made a folder (${codeOf(error)})`]);
  }
  // Taking over a stale lock removes it and tries again; a server starting on the folder meanwhile wins.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      const release = () => {
        try {
          if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path);
        } catch {
          // Gone already.
        }
      };
      process.once('exit', release);
      return { path, release };
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') throw new StartRefused([`DATA_DIR: its lock ${path} cannot be written (${codeOf(error)})`]);
    }
    const holder = holderOf(path);
    if (holder === null) {
      throw new StartRefused([`DATA_DIR: its lock ${path} holds no process id; if no server runs on ${folder}, delete the lock`]);
    }
    if (holder !== undefined && holder !== process.pid && isRunning(holder)) {
      throw new StartRefused([
        `DATA_DIR: ${folder} is in use by the local server of process ${holder} (lock ${path}); stop that server, or set DATA_DIR to another folder`,
      ]);
    }
    try {
      unlinkSync(path);
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') throw new StartRefused([`DATA_DIR: its stale lock ${path} cannot be removed (${codeOf(error)})`]);
    }
  }
  throw new StartRefused([`DATA_DIR: ${folder} is being taken by another server starting on it (lock ${path})`]);
}

/** The lock's process id; undefined when the lock is gone meanwhile, null when it holds none. */
function holderOf(path: string): number | null | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
  return /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : null;
}

/** Whether a process of that id runs (one of another user's counts: it cannot be signalled, but it is there). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === 'EPERM';
  }
}

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);
