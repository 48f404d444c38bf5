import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killLocalServers, startLocalServer, type LocalServer } from './support/local-server.js';

/**
 * docs/quickstart.md, run as written: every ```sh block of the page, in order, in one bash session
 * (what a block sets is kept for the next, as in the reader's terminal) against `npm start` on loopback, with
 * no network: the payment, the faucet and the claim's redemption are real signed transactions executed by the
 * development chain `npm start` runs, and each answer is compared with the ```json block the page shows under it.
 * Two blocks are marked for the test: starting the server (the test starts it as the block does) and restarting
 * it with the settings the block names (the test restarts its server with them, on the same port and data).
 *
 * An expected answer matches when every field it shows is in the real answer with that value; `…` (or a
 * string holding it) stands for any value, and fields it does not show may be there.
 */
const PAGE = 'docs/quickstart.md';

interface Step {
  /** The heading it is under, and the line it starts on (for messages). */
  where: string;
  command: string;
  marker?: 'skip' | 'restart';
  expected?: unknown;
}

function stepsOf(markdown: string): Step[] {
  const steps: Step[] = [];
  let heading = '';
  let marker: Step['marker'];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('## ')) heading = line.slice(3);
    const mark = /^<!-- test: (skip|restart)\b/.exec(line);
    if (mark) marker = mark[1] as Step['marker'];
    const fence = /^```(sh|json)$/.exec(line);
    if (!fence) continue;
    const start = i;
    const body: string[] = [];
    for (i++; lines[i] !== '```'; i++) body.push(lines[i]!);
    if (fence[1] === 'sh') {
      steps.push({ where: `${heading} (line ${start + 1})`, command: body.join('\n'), marker });
      marker = undefined;
    } else {
      const last = steps.at(-1);
      if (!last || last.expected !== undefined) throw new Error(`${PAGE} line ${start + 1}: an answer with no command before it`);
      last.expected = JSON.parse(body.join('\n'));
    }
  }
  return steps;
}

/** The last JSON value a command printed (an answer on one line, or a pretty-printed one). */
function lastJson(output: string): unknown {
  const lines = output.split('\n');
  for (let start = lines.length - 1; start >= 0; start--) {
    if (!/^\s*[{[]/.test(lines[start]!)) continue;
    for (let end = lines.length; end > start; end--) {
      try {
        return JSON.parse(lines.slice(start, end).join('\n'));
      } catch {
        // not JSON from here to there; try a shorter span
      }
    }
  }
  return undefined;
}

/** Where `actual` differs from what the page shows (`…` is any value; unshown fields may be there). */
function differences(actual: unknown, expected: unknown, path = ''): string[] {
  if (typeof expected === 'string' && expected.includes('…')) return actual === undefined || actual === null ? [`${path || '(answer)'}: missing`] : [];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: not a list (${JSON.stringify(actual)?.slice(0, 80)})`];
    return expected.flatMap((item, i) => differences(actual[i], item, `${path}[${i}]`));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') return [`${path || '(answer)'}: not an object (${JSON.stringify(actual)?.slice(0, 80)})`];
    return Object.entries(expected).flatMap(([key, value]) => differences((actual as Record<string, unknown>)[key], value, path ? `${path}.${key}` : key));
  }
  return actual === expected ? [] : [`${path}: ${JSON.stringify(actual)}, the page shows ${JSON.stringify(expected)}`];
}

let server: LocalServer;
let work: string;

/** `npm start` as step 1 runs it (no CHAIN_CONFIG: the development chain), with the demo data, plus `more`. */
const serverEnv = (more: Record<string, string> = {}) => ({
  DATA_DIR: join(work, 'data'),
  INDEXER_INTERVAL_MS: '2000',
  CHAIN_CONFIG: '',
  SEED_ADMIN_EMAIL: '',
  SEED_ADMIN_PASSWORD: '',
  ...more,
});

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'quickstart-'));
  server = await startLocalServer(serverEnv());
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await killLocalServers();
});

describe(PAGE, () => {
  it('quotes the TypeScript it shows from the programs it runs', () => {
    const page = readFileSync(PAGE, 'utf8');
    const quotes = [...page.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
    expect(quotes.length).toBeGreaterThanOrEqual(3);
    const programs = ['player.ts', 'game-server.ts', 'wallet.ts'].map((file) => readFileSync(join('docs/quickstart', file), 'utf8'));
    for (const quote of quotes)
      expect(
        programs.some((program) => program.includes(quote)),
        `${PAGE} quotes what no program holds:\n${quote}`,
      ).toBe(true);
  });

  it('every command works as written and answers what the page shows', async () => {
    const steps = stepsOf(readFileSync(PAGE, 'utf8'));
    expect(steps.filter((s) => s.marker === 'restart')).toHaveLength(1);
    expect(steps.filter((s) => s.expected !== undefined).length).toBeGreaterThan(8);
    // The reader's terminal: what each block sets stays for the next (a file of `declare -p` lines).
    // The reader set BASE_URL in their shell (not exported: the page's step 2 exports it, which the programs the
    // later steps run need, the server being on a port other than 3000).
    const state = join(work, 'state.sh');
    writeFileSync(state, `BASE_URL=${server.base}\n`);
    const { BASE_URL: _unset, ...inherited } = process.env;
    const env = { ...inherited, DATA_DIR: join(work, 'data'), QUICKSTART_KEY: join(work, 'key'), TMPDIR: work };
    const run = async (command: string) => {
      const script = `source ${state}\n{\n${command}\n} 2>&1\ndeclare -p | grep -v -E '^declare -[a-zA-Z-]*r' > ${state}.next; declare -f >> ${state}.next; mv ${state}.next ${state}`;
      return (await promisify(execFile)('bash', ['-c', script], { env, encoding: 'utf8', timeout: 90_000 })).stdout;
    };
    let ran = 0;
    for (const step of steps) {
      if (step.marker === 'skip') continue;
      if (step.marker === 'restart') {
        // The block is `VAR=value … npm start`: the same server, stopped and started with those settings.
        const settings = Object.fromEntries([...step.command.matchAll(/\b([A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
        expect(step.command.trim()).toMatch(/ npm start$/);
        expect(await server.stop()).toBe(0);
        server = await startLocalServer(serverEnv({ ...settings, PORT: new URL(server.base).port }));
        ran++;
        continue;
      }
      let output: string;
      try {
        output = await run(step.command);
      } catch (error) {
        const failed = error as { stdout?: string; stderr?: string };
        throw new Error(`${PAGE}, ${step.where}: the command failed\n${step.command}\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
      }
      ran++;
      if (step.expected === undefined) continue;
      const answer = lastJson(output);
      expect(
        differences(answer, step.expected),
        `${PAGE}, ${step.where}: ${step.command}\nanswered: ${output}\nthe server's last lines:\n${server.output().split('\n').slice(-15).join('\n')}`,
      ).toEqual([]);
    }
    expect(ran).toBe(steps.filter((s) => s.marker !== 'skip').length);
    console.log(`quickstart: ${ran} blocks of ${PAGE} run, ${steps.filter((s) => s.expected !== undefined).length} answers compared`);
  }, 400_000);

  it("signs in again from a new shell (no PLAYER_ID) as the same player: the id is kept beside the wallet's key", async () => {
    const first = /PLAYER_ID="([^"]+)"/.exec(readFileSync(join(work, 'state.sh'), 'utf8'))?.[1];
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    const { BASE_URL: _unset, PLAYER_ID: _none, ...inherited } = process.env;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'docs/quickstart/player.ts', 'sign-in'], {
      env: { ...inherited, BASE_URL: server.base, QUICKSTART_KEY: join(work, 'key'), TMPDIR: work },
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(stdout).toContain(`export PLAYER_ID='${first}'`);
  }, 120_000);
});
