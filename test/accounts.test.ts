import { beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createAccount, findAccount } from '../core/merchants/accounts.js';
import { createWithoutkeyApp } from '../functions/withoutkey.js';
import { call } from './support/http.js';
import { createTestDeps, dynamoEndpoint, type TestDeps } from './support/deps.js';

let deps: TestDeps;
let app: ReturnType<typeof createWithoutkeyApp>;
const login = (email: string, password: string) => call(app, 'POST', '/v2-testing/merchant/login', { body: { email, password } });

beforeAll(async () => {
  deps = await createTestDeps();
  app = createWithoutkeyApp(deps);
});

describe('merchant_login', () => {
  it('issues a merchant token carrying the role; the password is stored only as a scrypt hash', async () => {
    await createAccount(deps, { email: 'Boss@Example.com', password: 'a long passphrase', role: 'admin' });
    const res = await login('boss@example.com', 'a long passphrase');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 200, data: { role: 'admin', accessToken: expect.any(String), expiresAt: expect.any(String) } });
    const claims = await deps.tokens.verify(res.body.data.accessToken, ['merchant']);
    expect(claims).toMatchObject({ role: 'admin', email: 'boss@example.com', sub: res.body.data.account_id });
    const stored = await findAccount(deps, 'boss@example.com');
    expect(stored?.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(stored)).not.toContain('a long passphrase');
  });

  it('answers wrong passwords and unknown emails alike with 401', async () => {
    await createAccount(deps, { email: 'someone@example.com', password: 'right password', role: 'merchant' });
    const wrong = await login('someone@example.com', 'wrong password');
    const unknown = await login('nobody@example.com', 'whatever');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
  });

  // Throttling of failed logins (per account and source, with back-off) is test/login-throttle.test.ts.

  it('rejects a malformed body naming the field', async () => {
    const res = await login('not-an-email', 'x');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^body\.email/);
  });
});

describe('npm run admin -- create-account', () => {
  it('creates an account in the named table that can then sign in, and is idempotent', async () => {
    const run = (args: string[]) => promisify(execFile)('npx', ['tsx', 'tools/admin/cli.ts', 'create-account', ...args], { cwd: process.cwd() });
    const args = ['--email', 'ops@example.com', '--password', 'ops password 1', '--role', 'admin', '--table', deps.table, '--endpoint', dynamoEndpoint()];
    expect((await run(args)).stdout).toContain('created: ops@example.com (admin)');
    expect((await run(args)).stdout).toContain('exists already');
    const res = await login('ops@example.com', 'ops password 1');
    expect(res.body.data.role).toBe('admin');
  });
});
