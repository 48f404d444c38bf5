import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../tools/local/dynamo.js';
import { killLocalServers, processesNaming, runLocalServerToExit, startLocalServer } from './support/local-server.js';

/**
 * `npm start` refuses to start, at once, with one line naming what is wrong, and leaves nothing running: a port
 * in use, a DATA_DIR another server holds, a setting that does not parse. Each is found before DynamoDB Local
 * is started, so no Java process of it remains (none names the DATA_DIR's DynamoDB folder) and the folder is
 * not even made.
 */

const listeners: Server[] = [];
afterAll(async () => {
  await killLocalServers();
  await Promise.all(listeners.map((server) => new Promise((done) => server.close(done))));
});

const freshDataDir = (name: string) => join(mkdtempSync(join(tmpdir(), `local-start-${name}-`)), 'data');

/** The lines a refused start wrote: it must be exactly one, without a stack. */
function refusal(output: string): string {
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  expect(lines, output).toHaveLength(1);
  expect(output).not.toMatch(/^\s+at /m);
  return lines[0]!;
}

/** Nothing of DynamoDB Local is left for `dataDir`: no process names it, and its data folder was never made. */
function nothingLeft(dataDir: string) {
  expect(processesNaming(join(dataDir, 'dynamodb'))).toEqual([]);
  expect(existsSync(join(dataDir, 'dynamodb'))).toBe(false);
}

/** An id no running process has: a process that has just ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((done) => child.once('exit', done));
  return child.pid!;
}

describe('npm start refuses to start, leaving nothing running', () => {
  it('a port in use: one line naming the port, at once', async () => {
    const port = await freePort();
    const taken = createServer();
    listeners.push(taken);
    await new Promise<void>((done) => taken.listen(port, '127.0.0.1', done));
    const dataDir = freshDataDir('port');
    const { code, output } = await runLocalServerToExit({ DATA_DIR: dataDir, PORT: String(port) });
    expect(code).toBe(1);
    expect(refusal(output)).toMatch(new RegExp(`^\\[local\\] PORT: ${port} is in use on 127\\.0\\.0\\.1`));
    nothingLeft(dataDir);
  }, 60_000);

  it('a DATA_DIR a running server holds: one line naming its lock and the holder; a stale lock of a dead process is taken over', async () => {
    const dataDir = freshDataDir('lock');
    const first = await startLocalServer({ DATA_DIR: dataDir });
    const lock = join(dataDir, 'server.lock');
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(first.child.pid));
    const running = processesNaming(join(dataDir, 'dynamodb'));
    expect(running).toHaveLength(1);

    const second = await runLocalServerToExit({ DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(second.code).toBe(1);
    expect(refusal(second.output)).toMatch(
      new RegExp(`^\\[local\\] DATA_DIR: .*data is in use by the local server of process ${first.child.pid} \\(lock .*server\\.lock\\)`),
    );
    // The first server still serves, on the one DynamoDB Local of the folder.
    expect((await fetch(`${first.base}/v2-testing/health`)).status).toBe(200);
    expect(processesNaming(join(dataDir, 'dynamodb'))).toEqual(running);
    expect(await first.stop()).toBe(0);
    // A clean stop takes its lock away.
    expect(existsSync(lock)).toBe(false);

    // A server killed outright leaves its lock; the next start finds its process gone and takes the lock over.
    writeFileSync(lock, `${await deadPid()}\n`);
    const next = await startLocalServer({ DATA_DIR: dataDir });
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(next.child.pid));
    expect(await next.stop()).toBe(0);
    expect(processesNaming(join(dataDir, 'dynamodb'))).toEqual([]);
  }, 180_000);

  it('a DATA_DIR that cannot be a folder: one line naming it', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'local-start-file-'));
    writeFileSync(join(parent, 'a-file'), '');
    const dataDir = join(parent, 'a-file', 'data');
    const { code, output } = await runLocalServerToExit({ DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(refusal(output)).toMatch(/^\[local\] DATA_DIR: .*a-file\/data cannot be made a folder/);
    expect(processesNaming(dataDir)).toEqual([]);
  }, 60_000);

  const secret = 'do-not-print-this-secret';
  const settings: [string, Record<string, string>, RegExp][] = [
    ['PORT', { PORT: 'abc' }, /^PORT: expected a port number from 1 to 65535, got "abc"$/],
    ['PORT', { PORT: '70000' }, /^PORT: expected a port number from 1 to 65535, got "70000"$/],
    ['HOST', { HOST: 'no-such-host.invalid' }, /^HOST: no-such-host\.invalid is not an address of this machine/],
    ['CHAIN_CONFIG', { CHAIN_CONFIG: '{"url": ' }, /^CHAIN_CONFIG: not valid JSON$/],
    ['CHAIN_CONFIG', { CHAIN_CONFIG: '{"url":"ftp://node.example"}' }, /^CHAIN_CONFIG: url must be an http\(s\) URL$/],
    ['OAUTH_PROVIDERS', { OAUTH_PROVIDERS: `[{"name":"google", "x": "${secret}"` }, /^OAUTH_PROVIDERS: not valid JSON$/],
    ['OAUTH_PROVIDERS', { OAUTH_PROVIDERS: '[{"name":"google"}]' }, /^OAUTH_PROVIDERS\[0\]: expected \{name, issuer, jwksUri, clientIds/],
    ['APPLE_CONFIG', { APPLE_CONFIG: '[]' }, /^APPLE_CONFIG: expected a JSON object$/],
    ['GOOGLE_CONFIG', { GOOGLE_CONFIG: '{}' }, /^GOOGLE_CONFIG: packageName must be/],
    ['STORE_KEYS', { STORE_KEYS: secret }, /^STORE_KEYS: expected JSON/],
    ['CLAIM_SIGNING_KEY', { CLAIM_SIGNING_KEY: secret }, /^CLAIM_SIGNING_KEY: expected a private Ed25519 JWK/],
    ['CLOCK_OFFSET_MS', { CLOCK_OFFSET_MS: '1.5' }, /^CLOCK_OFFSET_MS: expected an integer number of milliseconds, got "1\.5"$/],
    ['INDEXER_INTERVAL_MS', { INDEXER_INTERVAL_MS: '0' }, /^INDEXER_INTERVAL_MS: expected milliseconds from 1 to 2147483647, got "0"$/],
    ['SETTLEMENT_INTERVAL_MS', { SETTLEMENT_INTERVAL_MS: 'often' }, /^SETTLEMENT_INTERVAL_MS: expected milliseconds/],
    ['RANK_STREAM_INTERVAL_MS', { RANK_STREAM_INTERVAL_MS: '-1' }, /^RANK_STREAM_INTERVAL_MS: expected milliseconds/],
    ['RANK_SNAPSHOT_INTERVAL_MS', { RANK_SNAPSHOT_INTERVAL_MS: '1m' }, /^RANK_SNAPSHOT_INTERVAL_MS: expected milliseconds from 1 to 2147483647, got "1m"$/],
    ['DELETIONS_INTERVAL_MS', { DELETIONS_INTERVAL_MS: '1e3' }, /^DELETIONS_INTERVAL_MS: expected milliseconds/],
    ['SEED_ADMIN_PASSWORD', { SEED_ADMIN_EMAIL: 'admin@example.com' }, /^SEED_ADMIN_PASSWORD: unset, while SEED_ADMIN_EMAIL is set/],
    ['SEED_ADMIN_EMAIL', { SEED_ADMIN_EMAIL: 'admin', SEED_ADMIN_PASSWORD: 'long enough password' }, /^SEED_ADMIN_EMAIL: expected an email address/],
    ['SEED_ADMIN_PASSWORD', { SEED_ADMIN_EMAIL: 'admin@example.com', SEED_ADMIN_PASSWORD: 'short' }, /^SEED_ADMIN_PASSWORD: expected 8 to 256 characters/],
    ['AWS_ENDPOINT_URL_DYNAMODB', { AWS_ENDPOINT_URL_DYNAMODB: 'localhost:8000' }, /^AWS_ENDPOINT_URL_DYNAMODB: expected an http\(s\) URL/],
    ['DYNAMODB_TABLE', { DYNAMODB_TABLE: 'my table' }, /^DYNAMODB_TABLE: expected a table name of 3 to 255 letters, digits, "_", "-" or "\.", got "my table"$/],
    ['CONSOLE_ASSETS_DIR', { CONSOLE_ASSETS_DIR: join(tmpdir(), 'no-such-console-folder') }, /^CONSOLE_ASSETS_DIR: .* holds no built console/],
  ];

  it.each(settings)(
    'a malformed %s (%j): one line naming it and what is wrong, no stack, nothing started',
    async (_, env, problem) => {
      const dataDir = freshDataDir('setting');
      const { code, output } = await runLocalServerToExit({ DATA_DIR: dataDir, PORT: String(await freePort()), ...env });
      expect(code).toBe(1);
      const line = refusal(output);
      expect(line.replace(/^\[local\] /, '')).toMatch(problem);
      expect(line).not.toContain(secret);
      nothingLeft(dataDir);
    },
    60_000,
  );

  it('several malformed settings: one line each', async () => {
    const dataDir = freshDataDir('settings');
    const { code, output } = await runLocalServerToExit({ DATA_DIR: dataDir, PORT: 'abc', CHAIN_CONFIG: '{', OAUTH_PROVIDERS: '{}' });
    expect(code).toBe(1);
    const lines = output.split('\n').filter((line) => line.trim() !== '');
    expect(lines.map((line) => line.match(/^\[local\] ([A-Z_]+)/)?.[1])).toEqual(['PORT', 'CHAIN_CONFIG', 'OAUTH_PROVIDERS']);
    nothingLeft(dataDir);
  }, 60_000);
});
