import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { revocationKey } from '../core/access/keys.js';
import { createAccount, findAccount, loginThrottle } from '../core/merchants/accounts.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, itemCount, itemsOfType, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';

/**
 * change_password (core/access/password.ts) through the HTTP API: the current password is checked under the login
 * throttle, the new hash is written with the revocation of every console session issued before it, and the answer
 * is a new session that works.
 */
let deps: TestDeps;
let app: Hono;
const base = '/v2-testing';
let counter = 0;

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
});

const login = (email: string, password: string) => call(app, 'POST', `${base}/merchant/login`, { body: { email, password } });
const change = (token: string, body: unknown) => call(app, 'POST', `${base}/merchant/account/password`, { token, body });
const info = (token: string) => call(app, 'GET', `${base}/merchant/tokens`, { token });

/** An account signed in through merchant_login (its session names the email). */
async function signedIn(role: 'merchant' | 'admin' = 'merchant') {
  const email = `pw${++counter}-${Date.now()}@example.com`;
  await createAccount(deps, { email, password: 'old password 1', role });
  const session = await login(email, 'old password 1');
  expect(session.status).toBe(200);
  return { email, token: session.body.data.accessToken as string, accountId: session.body.data.account_id as string };
}

const stored = async (email: string) => ({
  account: await findAccount(deps, email),
  revocation: (await deps.db.send(new GetCommand({ TableName: deps.table, Key: revocationKey((await findAccount(deps, email))!.accountId) }))).Item,
});

describe('change_password', () => {
  for (const role of ['merchant', 'admin'] as const) {
    it(`changes a ${role}'s password: the old one no longer signs in, old sessions are refused, the new session works`, async () => {
      const me = await signedIn(role);
      const other = await login(me.email, 'old password 1');
      const changed = await change(me.token, { current_password: 'old password 1', new_password: 'new password 2' });
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({ account_id: me.accountId, role, accessToken: expect.any(String), sessions_revoked_before: expect.any(String) });

      for (const old of [me.token, other.body.data.accessToken]) {
        const refused = await info(old);
        expect([refused.status, refused.body.error]).toEqual([401, 'auth.token_revoked']);
      }
      expect((await info(changed.body.data.accessToken)).status).toBe(200);

      const oldSignIn = await login(me.email, 'old password 1');
      expect([oldSignIn.status, oldSignIn.body.error]).toEqual([401, 'account.credentials_wrong']);
      const newSignIn = await login(me.email, 'new password 2');
      expect(newSignIn.status).toBe(200);
      expect((await info(newSignIn.body.data.accessToken)).status).toBe(200);
    });
  }

  it('refuses a wrong current password with 403, writing only the login throttle’s failure counters', async () => {
    const me = await signedIn();
    const before = await stored(me.email);
    const count = await itemCount(deps);
    const throttled = (await itemsOfType(deps, 'login-throttle')).length;
    const wrong = await change(me.token, { current_password: 'not it at all', new_password: 'new password 2' });
    expect([wrong.status, wrong.body.error, wrong.body.message]).toEqual([403, 'account.password_wrong', 'current_password: wrong password']);
    expect(await stored(me.email)).toEqual(before);
    // The failure is counted as a failed sign-in would be (the email's hour window, at least, is new): no other item is written.
    const added = (await itemsOfType(deps, 'login-throttle')).length - throttled;
    expect(added).toBeGreaterThan(0);
    expect(await itemCount(deps)).toBe(count + added);
    // The session still works, and the password is the old one.
    expect((await info(me.token)).status).toBe(200);
    expect((await login(me.email, 'old password 1')).status).toBe(200);
  });

  it('holds guesses of the current password to the login back-off (429, nothing written)', async () => {
    const me = await signedIn();
    for (let i = 0; i <= loginThrottle.freeFailures; i++) {
      expect((await change(me.token, { current_password: `guess ${i}`, new_password: 'new password 2' })).status).toBe(403);
    }
    const count = await itemCount(deps);
    const held = await change(me.token, { current_password: 'old password 1', new_password: 'new password 2' });
    expect([held.status, held.body.error]).toEqual([429, 'account.sign_in_throttled']);
    expect(held.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await itemCount(deps)).toBe(count);
  });

  it('answers 400 naming the field for bad input, writing nothing', async () => {
    const me = await signedIn();
    const count = await itemCount(deps);
    const cases: [unknown, RegExp][] = [
      [{ current_password: 'old password 1', new_password: 'short' }, /^body\.new_password: /],
      [{ current_password: 'old password 1' }, /^body\.new_password: /],
      [{ new_password: 'new password 2' }, /^body\.current_password: /],
      [{ current_password: '', new_password: 'new password 2' }, /^body\.current_password: /],
    ];
    for (const [body, message] of cases) {
      const bad = await change(me.token, body);
      expect([bad.status, bad.body.message]).toEqual([400, expect.stringMatching(message)]);
    }
    expect(await itemCount(deps)).toBe(count);
    expect((await change('not a token', { current_password: 'old password 1', new_password: 'new password 2' })).status).toBe(401);
  });
});
