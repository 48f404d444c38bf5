import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConflictEmulator, ItemKey, SentTransaction } from './conflict-emulator.js';

/**
 * The transactions a test run sent, kept so that one test can look at all of them (test/contention.test.ts):
 * every test file runs in its own process (vitest's forks pool), so each process appends to its own file in a
 * folder of the run, named after the run's main process (the parent of every test process).
 */
const PREFIX = 'dynamo-transactions-';

/**
 * A folder of the test run for what every test process leaves (`<prefix><main process id>` in the temporary
 * folder; the main process is the parent of every test process); undefined outside vitest.
 */
export function runFolder(prefix: string): string | undefined {
  return process.env.VITEST ? join(tmpdir(), `${prefix}${process.ppid}`) : undefined;
}

/** The run's journal folder inside vitest; undefined elsewhere (the bench keeps no journal). */
export const runJournalDir = () => runFolder(PREFIX);

/** Appends every transaction the emulator sees to this process's file in `dir`. */
export function keepJournal(emulator: ConflictEmulator, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.pid}.jsonl`);
  emulator.watch((transaction) => appendFileSync(file, `${JSON.stringify(transaction)}\n`));
}

/** Every transaction written to `dir` so far, with the process that sent it; a line being written is skipped. */
export function readJournal(dir: string): (SentTransaction & { process: string })[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((file) =>
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .flatMap((line) => {
        try {
          return [{ ...(JSON.parse(line) as SentTransaction), process: file }];
        } catch {
          return [];
        }
      }),
  );
}

/** Removes the journal folders of runs whose main process has ended. */
export const removeEndedRunJournals = () => removeEndedRunFolders(PREFIX);

/** Removes the run folders (`<prefix><main process id>` in the temporary folder) whose main process has ended. */
export function removeEndedRunFolders(prefix: string): void {
  for (const name of readdirSync(tmpdir()).filter((entry) => entry.startsWith(prefix))) {
    const pid = Number(name.slice(prefix.length));
    if (Number.isInteger(pid) && !isAlive(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The players a transaction is made for, read from its keys: the users whose partition (`USER#<uid>`: balance,
 * ledger, account) it writes, and the players whose score items (`SCORE#…`, sk `PLAYER#<id>`) it adds to.
 * Empty for a transaction of no player (a merchant's game, settlement, a claim's entry).
 */
export function playersOf(transaction: SentTransaction): string[] {
  const players = new Set<string>();
  for (const item of transaction.items) {
    if (item.pk.startsWith('USER#')) players.add(item.pk.slice('USER#'.length));
    else if (item.pk.startsWith('SCORE#') && item.sk.startsWith('PLAYER#')) players.add(item.sk.slice('PLAYER#'.length));
  }
  return [...players].sort();
}

export interface SharedItem extends ItemKey {
  /** The player sets of the transactions that included it, e.g. [['u1'], ['u2']]. */
  players: string[][];
  action: string;
}

/**
 * The items that transactions of different players include: those whose transactions have no player in
 * common. Each is a place where the real service cancels one player's request because of another's. Items
 * whose transactions all have some player in common are that player's (their balance, their score in two
 * matches that both had them in): those collide only among that player's own requests. `allowed` says which
 * keys are meant to be shared (see its caller).
 */
export function itemsSharedByPlayers(transactions: SentTransaction[], allowed: (key: ItemKey) => boolean): SharedItem[] {
  const byItem = new Map<string, { key: ItemKey; action: string; players: Set<string>; common: Set<string> }>();
  for (const transaction of transactions) {
    const players = playersOf(transaction);
    if (players.length === 0) continue;
    for (const item of transaction.items) {
      if (allowed(item)) continue;
      const id = JSON.stringify([item.table, item.pk, item.sk]);
      const seen = byItem.get(id);
      if (!seen) {
        byItem.set(id, {
          key: { table: item.table, pk: item.pk, sk: item.sk },
          action: item.action,
          players: new Set([JSON.stringify(players)]),
          common: new Set(players),
        });
        continue;
      }
      seen.players.add(JSON.stringify(players));
      for (const player of seen.common) if (!players.includes(player)) seen.common.delete(player);
    }
  }
  return [...byItem.values()]
    .filter((entry) => entry.common.size === 0)
    .map((entry) => ({ ...entry.key, action: entry.action, players: [...entry.players].map((set) => JSON.parse(set) as string[]) }));
}
