import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { adminClient, freePort, startDynamoLocal } from '../tools/local/dynamo.js';
import { killLocalServers, startLocalServer } from './support/local-server.js';

/**
 * `npm start`'s interface, which other tools rely on: PORT, DATA_DIR, SEED_ADMIN_*, /health, a clean stop on
 * SIGINT/SIGTERM that also stops DynamoDB Local, and data that survives a restart.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'local-server-'));
const running: ChildProcess[] = [];

/** `npm start` with the test's DATA_DIR (test/support/local-server.ts). */
const startServer = (env: Record<string, string>) => startLocalServer({ DATA_DIR: dataDir, ...env });

function stopped(child: ChildProcess) {
  return new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
}

async function post(url: string, body: unknown, token?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

afterAll(async () => {
  await killLocalServers();
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('the local server', () => {
  it('seeds the admin, serves both bases, stops cleanly on SIGINT and finds its data again after a restart', async () => {
    const credentials = { email: 'admin@example.com', password: 'local admin password' };
    const first = await startServer({ SEED_ADMIN_EMAIL: credentials.email, SEED_ADMIN_PASSWORD: credentials.password });
    expect(first.output()).toContain('admin account admin@example.com created');
    expect(first.output()).toMatch(/DynamoDB: the embedded DynamoDB Local at http:\/\/127\.0\.0\.1:\d+, data in /);

    const login = await post(`${first.base}/v2-testing/merchant/login`, credentials);
    expect(login.body.data.role).toBe('admin');
    const created = await post(`${first.base}/v2-testing/merchant/create`, { merchant_name: 'Kept Across Restarts' }, login.body.data.accessToken);
    expect(created.status).toBe(200);
    const heroJwks = await fetch(`${first.base}/hero-testing/.well-known/jwks.json`);
    expect(((await heroJwks.json()) as { keys: unknown[] }).keys).toHaveLength(1);

    first.child.kill('SIGINT');
    expect(await stopped(first.child)).toBe(0);
    expect(first.output()).toContain('SIGINT: stopping');

    // The same port of DynamoDB Local is not needed again: a restart spawns a new one on the same data.
    const second = await startServer({ SEED_ADMIN_EMAIL: credentials.email, SEED_ADMIN_PASSWORD: credentials.password });
    expect(second.output()).toContain('admin account admin@example.com exists');
    const again = await post(`${second.base}/v2-testing/merchant/login`, credentials);
    // Tokens of the first run stay valid too: the signing key is kept in DATA_DIR.
    const info = await fetch(`${second.base}/v2-testing/merchant/info`, { headers: { authorization: `Bearer ${login.body.data.accessToken}` } });
    expect(((await info.json()) as any).data.merchant_name).toBe('Kept Across Restarts');
    expect(again.status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await stopped(second.child)).toBe(0);
  }, 180_000);

  it('loads demo data into an empty table and prints the demo credentials', async () => {
    const demoDir = mkdtempSync(join(tmpdir(), 'local-demo-'));
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'tools/local/server.ts'], {
      env: { ...process.env, PORT: String(port), DATA_DIR: demoDir, SEED_ADMIN_EMAIL: '', SEED_ADMIN_PASSWORD: '', AWS_ENDPOINT_URL_DYNAMODB: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    const deadline = Date.now() + 90_000;
    while (!output.includes('serving') && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 250));
    const match = output.match(/demo merchant account: (\S+) \/ (\S+)/);
    expect(match).not.toBeNull();
    const login = await post(`http://127.0.0.1:${port}/v2-testing/merchant/login`, { email: match![1], password: match![2] });
    expect(login.status).toBe(200);
    const page = await fetch(`http://127.0.0.1:${port}/v2-testing/merchant/merchant/page`);
    expect(Object.keys(((await page.json()) as any).data)).toHaveLength(2);
    child.kill('SIGINT');
    expect(await stopped(child)).toBe(0);
  }, 180_000);

  it('uses the DynamoDB that AWS_ENDPOINT_URL_DYNAMODB names: makes the table there, and starts and stops none', async () => {
    // The user's DynamoDB Local, running before the server and after it.
    const theirs = await startDynamoLocal();
    try {
      const ownDir = mkdtempSync(join(tmpdir(), 'local-external-'));
      const env = {
        DATA_DIR: ownDir,
        AWS_ENDPOINT_URL_DYNAMODB: theirs.endpoint,
        AWS_REGION: 'eu-west-1',
        AWS_ACCESS_KEY_ID: 'someone',
        AWS_SECRET_ACCESS_KEY: 'their secret',
        SEED_ADMIN_EMAIL: 'ops@example.com',
        SEED_ADMIN_PASSWORD: 'external dynamo password',
      };
      const first = await startServer(env);
      expect(first.output()).toContain(`DynamoDB: ${theirs.endpoint} (AWS_ENDPOINT_URL_DYNAMODB), region eu-west-1`);
      expect(first.output()).toContain('table game-platform created');
      const client = adminClient({ endpoint: theirs.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'someone', secretAccessKey: 'their secret' } });
      expect((await client.send(new ListTablesCommand({}))).TableNames).toContain('game-platform');
      // No embedded DynamoDB Local was started: nothing was stored in DATA_DIR's DynamoDB folder.
      expect(existsSync(join(ownDir, 'dynamodb'))).toBe(false);
      const login = await post(`${first.base}/v2-testing/merchant/login`, { email: env.SEED_ADMIN_EMAIL, password: env.SEED_ADMIN_PASSWORD });
      expect(login.status).toBe(200);
      first.child.kill('SIGTERM');
      expect(await stopped(first.child)).toBe(0);

      // Their DynamoDB still runs, and a second start finds the table and its data there.
      const second = await startServer(env);
      expect(second.output()).toContain('table game-platform found');
      expect(second.output()).toContain('admin account ops@example.com exists');
      second.child.kill('SIGINT');
      expect(await stopped(second.child)).toBe(0);
      expect((await client.send(new ListTablesCommand({}))).TableNames).toContain('game-platform');
    } finally {
      await theirs.stop();
    }
  }, 180_000);
});
