import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_FILE } from '../tools/local/server-file.js';
import { type LocalServer, startLocalServer } from './support/local-server.js';

/**
 * The admin CLI beside `npm start`: it finds the local server's table and DynamoDB from DATA_DIR (the server's
 * file there, tools/local/server-file.ts), with no --endpoint or --table, as README's quickstart runs it.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'admin-cli-local-'));
let server: LocalServer;

/** `npm run -s admin -- <args>` in a shell of a developer who set DATA_DIR and nothing else. */
const admin = (args: string[]) =>
  promisify(execFile)('npm', ['run', '-s', 'admin', '--', ...args], {
    env: { ...process.env, DATA_DIR: dataDir, AWS_ENDPOINT_URL_DYNAMODB: '' },
    timeout: 60_000,
  });

beforeAll(async () => {
  server = await startLocalServer({ DATA_DIR: dataDir });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('npm run admin beside npm start', () => {
  it("creates an account in the running server's table with no --endpoint or --table, and the account signs in", async () => {
    const file = JSON.parse(readFileSync(join(dataDir, SERVER_FILE), 'utf8')) as { pid: number; url: string; table: string; dynamodb: { endpoint: string } };
    expect(file).toMatchObject({ pid: server.child.pid, table: 'game-platform', dynamodb: { endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) } });
    const { stdout, stderr } = await admin(['create-account', '--email', 'studio@example.com', '--password', 'a long enough password']);
    expect(stdout).toMatch(/^created: studio@example\.com \(merchant\) in table game-platform/);
    expect(stderr).toContain(`table game-platform of the local server on ${dataDir}`);
    const login = await fetch(`${server.base}/v2-testing/merchant/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'studio@example.com', password: 'a long enough password' }),
    });
    expect(login.status).toBe(200);
  }, 120_000);

  it('once the server has stopped, says how to name a table instead of reaching for another', async () => {
    await server.stop();
    expect(existsSync(join(dataDir, SERVER_FILE))).toBe(false);
    const refused = await admin(['create-account', '--email', 'late@example.com', '--password', 'a long enough password']).then(
      () => undefined,
      (error: { stderr: string; code: number }) => error,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toMatch(/no table: start the local server \(npm start\) on DATA_DIR .*, or pass --table/);
  }, 120_000);
});
