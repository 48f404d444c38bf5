import { beforeAll, describe, expect, it } from 'vitest';
import { createInnerApp } from '../functions/inner.js';
import { call } from './support/http.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { accountWithToken, merchantWithToken } from './support/merchants.js';

let deps: TestDeps;
let app: ReturnType<typeof createInnerApp>;
const base = '/v2-testing';

beforeAll(async () => {
  deps = await createTestDeps();
  app = createInnerApp(deps);
});

describe('create_merchant', () => {
  it('creates the caller merchant, pending review, and refuses a second', async () => {
    const owner = await accountWithToken(deps);
    const payload = {
      merchant_name: 'Lunar Games',
      logo_url: 'https://cdn.example.com/lunar.png',
      description: 'We make moon games',
      back_ground_image: ['merchant/1/bg.png'],
      social_links: [{ name: 'x', url: 'https://x.com/lunar' }],
    };
    const first = await call(app, 'POST', `${base}/merchant/create`, { token: owner.token, body: payload });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ code: 200, message: expect.any(String) });
    expect(first.body.data).toMatchObject({ ...payload, status: 0, account_id: owner.accountId, merchant_email: owner.email });
    expect(Number.isInteger(first.body.data.id)).toBe(true);

    const second = await call(app, 'POST', `${base}/merchant/create`, { token: owner.token, body: payload });
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ code: 409, message: expect.stringContaining('already has'), data: null, error: 'merchant.exists' });
  });

  it('lets exactly one of many concurrent creates for one account win', async () => {
    const owner = await accountWithToken(deps);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call(app, 'POST', `${base}/merchant/create`, { token: owner.token, body: { merchant_name: `M${i}` } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
  });

  it('gives distinct integer ids to merchants created at once', async () => {
    const owners = await Promise.all(Array.from({ length: 8 }, () => accountWithToken(deps)));
    const results = await Promise.all(owners.map((o) => call(app, 'POST', `${base}/merchant/create`, { token: o.token, body: { merchant_name: 'Same' } })));
    const ids = results.map((r) => r.body.data.id);
    expect(new Set(ids).size).toBe(8);
  });
});

describe('get_merchant_info and get_token', () => {
  it('returns the caller merchant, and a server token that verifies with the server audience', async () => {
    const { token, merchant } = await merchantWithToken(deps);
    const info = await call(app, 'GET', `${base}/merchant/info`, { token });
    expect(info.status).toBe(200);
    expect(info.body.data).toMatchObject({ id: merchant.id, status: 1 });

    const issued = await call(app, 'GET', `${base}/merchant/token`, { token });
    expect(issued.status).toBe(200);
    expect(issued.body.data.merchant_id).toBe(merchant.id);
    const claims = await deps.tokens.verify(issued.body.data.accessToken, ['server']);
    expect(claims.merchant_id).toBe(merchant.id);
    await expect(deps.tokens.verify(issued.body.data.accessToken, ['merchant'])).rejects.toMatchObject({ kind: 'Unauthenticated' });
  });

  it('answers 404 before a merchant exists and 403 for a suspended one', async () => {
    const owner = await accountWithToken(deps);
    expect((await call(app, 'GET', `${base}/merchant/info`, { token: owner.token })).status).toBe(404);
    const suspended = await merchantWithToken(deps, 2);
    const refused = await call(app, 'GET', `${base}/merchant/token`, { token: suspended.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 403, message: 'merchant is suspended', data: null, error: 'merchant.suspended' });
  });
});

describe('merchantStatus', () => {
  it('reads the own status; admins read and set any', async () => {
    const owner = await merchantWithToken(deps, 0);
    const admin = await accountWithToken(deps, 'admin');
    const own = await call(app, 'GET', `${base}/merchant/status`, { token: owner.token });
    expect(own.body).toEqual({ code: 200, message: 'success', data: { merchant_id: owner.merchant.id, status: 0 } });

    const other = await merchantWithToken(deps);
    const peek = await call(app, 'GET', `${base}/merchant/status`, { token: owner.token, query: { merchant_id: other.merchant.id } });
    expect(peek.status).toBe(403);

    const denied = await call(app, 'POST', `${base}/merchant/status`, { token: owner.token, body: { merchant_id: owner.merchant.id, status: 1 } });
    expect(denied.status).toBe(403);

    const set = await call(app, 'POST', `${base}/merchant/status`, { token: admin.token, body: { merchant_id: owner.merchant.id, status: 1 } });
    expect(set.body.data).toEqual({ merchant_id: owner.merchant.id, status: 1 });
    const read = await call(app, 'GET', `${base}/merchant/status`, { token: admin.token, query: { merchant_id: owner.merchant.id } });
    expect(read.body.data.status).toBe(1);

    const missing = await call(app, 'POST', `${base}/merchant/status`, { token: admin.token, body: { merchant_id: 999999, status: 1 } });
    expect(missing.status).toBe(404);
    const bad = await call(app, 'POST', `${base}/merchant/status`, { token: admin.token, body: { merchant_id: owner.merchant.id, status: 7 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^body\.status/);
  });
});
