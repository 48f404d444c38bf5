import { beforeAll, describe, expect, it } from 'vitest';
import { createMerchant } from '../core/merchants/merchants.js';
import { merchantKey } from '../core/merchants/keys.js';
import { MerchantPayload, MerchantStatus } from '../core/merchants/models.js';
import { createInnerApp } from '../functions/inner.js';
import { createTestDeps, itemsOfType, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { accountWithToken, merchantWithToken } from './support/merchants.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { scanAll } from './support/table-snapshot.js';

/**
 * admin_merchants and the reason of a status change (docs/api.md, "Operator console"): admins list the merchants
 * of one status (pending review by default), newest first, cursor-paged; merchantStatus (set) takes an optional
 * reason, kept with when and by whom, and shown by merchantStatus, get_merchant_info and the list.
 */
let deps: TestDeps;
let inner: ReturnType<typeof createInnerApp>;
let admin: Awaited<ReturnType<typeof accountWithToken>>;
const base = '/v2-testing';
const document = servedDocument(base);

beforeAll(async () => {
  deps = await createTestDeps();
  inner = createInnerApp(deps);
  admin = await accountWithToken(deps, 'admin');
});

interface Reviewed {
  id: number;
  account_id: string;
  merchant_name: string;
  status: number;
  create_time: string;
  status_reason: string | null;
  status_changed_at: string | null;
  status_changed_by: string | null;
}

/** A request checked against the served OpenAPI document. */
async function documented(method: 'GET' | 'POST', path: string, options: Parameters<typeof call>[3]) {
  const res = await call(inner, method, `${base}${path}`, options);
  expect(documentErrors(document, path, method.toLowerCase(), res.status, res.body)).toEqual([]);
  return res;
}

const list = (token: string, query: Record<string, string | number> = {}) => documented('GET', '/merchant/admin/merchants', { token, query });

async function page(query: Record<string, string | number> = {}) {
  const res = await list(admin.token, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { items: Reviewed[]; next: string | null };
}

async function allPages(query: Record<string, string | number>) {
  const items: Reviewed[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const data = await page(cursor ? { ...query, cursor } : query);
    items.push(...data.items);
    sizes.push(data.items.length);
    cursor = data.next;
  } while (cursor);
  return { items, sizes };
}

const setStatus = (body: Record<string, unknown>, token = admin.token) => documented('POST', '/merchant/status', { token, body });

/** The merchants of a status as the table holds them, newest (by creation) first. */
async function stored(status: number) {
  const merchants = (await itemsOfType(deps, 'merchant')).filter((item) => item.status === status);
  return merchants
    .sort((a, b) => (a.create_time === b.create_time ? Number(b.id) - Number(a.id) : String(a.create_time) < String(b.create_time) ? 1 : -1))
    .map((item) => item.id);
}

describe('admin_merchants', () => {
  it('lists the merchants pending review newest first, each as get_merchant_info shows it, a page at a time', async () => {
    const made = [];
    for (let i = 0; i < 7; i++) made.push(await merchantWithToken(deps, MerchantStatus.pending));
    const { items, sizes } = await allPages({ limit: 3 });
    const expected = await stored(MerchantStatus.pending);
    expect(items.map((item) => item.id)).toEqual(expected);
    expect(sizes.slice(0, -1).every((size) => size === 3)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(expected.length);
    const newest = made.at(-1)!;
    const info = await documented('GET', '/merchant/info', { token: newest.token });
    expect(items[0]).toEqual({ ...info.body.data, status_reason: null, status_changed_at: null, status_changed_by: null });
    expect(items[0]).toMatchObject({ id: newest.merchant.id, account_id: newest.accountId, status: 0 });
    // The default is pending review; the same as asking for status 0.
    expect((await page({ status: 0, limit: 100 })).items.map((item) => item.id)).toEqual(expected);
  });

  it('moves a merchant to the list of its new status when the status is set, with the reason, when and who', async () => {
    const owner = await merchantWithToken(deps, MerchantStatus.pending);
    const activated = await setStatus({ merchant_id: owner.merchant.id, status: MerchantStatus.active, reason: '  documents checked  ' });
    expect(activated.status).toBe(200);
    expect((await page({ limit: 100 })).items.map((item) => item.id)).not.toContain(owner.merchant.id);
    const active = (await page({ status: MerchantStatus.active, limit: 100 })).items.find((item) => item.id === owner.merchant.id);
    expect(active).toMatchObject({
      status: 1,
      status_reason: 'documents checked',
      status_changed_at: expect.stringMatching(/Z$/),
      status_changed_by: admin.accountId,
    });
    const suspended = await setStatus({ merchant_id: owner.merchant.id, status: MerchantStatus.suspended });
    expect(suspended.status).toBe(200);
    expect((await page({ status: MerchantStatus.active, limit: 100 })).items.map((item) => item.id)).not.toContain(owner.merchant.id);
    const listed = (await page({ status: MerchantStatus.suspended })).items.find((item) => item.id === owner.merchant.id);
    expect(listed).toMatchObject({ status: 2, status_reason: null, status_changed_by: admin.accountId, status_changed_at: expect.any(String) });
    expect(await stored(MerchantStatus.suspended)).toEqual((await allPages({ status: 2, limit: 2 })).items.map((item) => item.id));
  });

  it('is for admins only: a merchant console token is 403, no token 401, and neither writes', async () => {
    const owner = await merchantWithToken(deps);
    const before = await scanAll(deps);
    const refused = await list(owner.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'auth.admin_only', data: null });
    expect((await list('')).status).toBe(401);
    expect(await scanAll(deps)).toEqual(before);
  });

  it("refuses another admin's cursor, another status's and an altered one, naming cursor; and bad status or limit", async () => {
    for (let i = 0; i < 3; i++) await merchantWithToken(deps, MerchantStatus.pending);
    const { next } = await page({ limit: 1 });
    expect(next).toEqual(expect.any(String));
    const other = await accountWithToken(deps, 'admin');
    const decoded = JSON.parse(Buffer.from(next!, 'base64url').toString('utf8'));
    const refusals = [
      await list(other.token, { limit: 1, cursor: next! }),
      await list(admin.token, { limit: 1, cursor: next!, status: 1 }),
      await list(admin.token, { cursor: Buffer.from(JSON.stringify({ ...decoded, k: { before: 'MERCHANTS#0' } })).toString('base64url') }),
      await list(admin.token, { cursor: Buffer.from(JSON.stringify({ ...decoded, s: 'merchants#1' })).toString('base64url') }),
      // A place of the same form, above every merchant: the list from its top again.
      await list(admin.token, {
        limit: 1,
        cursor: Buffer.from(JSON.stringify({ ...decoded, k: { before: '9999-12-31T23:59:59.999Z#999999999999' } })).toString('base64url'),
      }),
      await list(admin.token, { cursor: `${next!.slice(0, -3)}xyz` }),
    ];
    for (const res of refusals) {
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ code: 400, error: 'input.invalid', data: null });
      expect(res.body.message).toMatch(/^query\.cursor: /);
    }
    for (const [field, value] of [
      ['status', '3'],
      ['status', 'pending'],
      ['limit', '0'],
      ['limit', '101'],
    ] as const) {
      const res = await list(admin.token, { [field]: value });
      expect(res.status, `${field}=${value}`).toBe(400);
      expect(res.body.message).toMatch(new RegExp(`^query\\.${field}: `));
    }
  });
});

describe('merchantStatus (set) with a reason', () => {
  it('keeps the reason with when and who, shown by merchantStatus, get_merchant_info and the list; admins alone see who', async () => {
    const owner = await merchantWithToken(deps);
    const res = await setStatus({ merchant_id: owner.merchant.id, status: MerchantStatus.suspended, reason: 'chargebacks under review' });
    expect(res.status).toBe(200);
    const change = { status_reason: 'chargebacks under review', status_changed_at: expect.stringMatching(/Z$/) };
    expect(res.body).toEqual({
      code: 200,
      message: 'success',
      data: { merchant_id: owner.merchant.id, status: 2, ...change, status_changed_by: admin.accountId },
    });
    const item = (await itemsOfType(deps, 'merchant')).find((merchant) => merchant.id === owner.merchant.id)!;
    expect(item).toMatchObject({
      status: 2,
      status_reason: 'chargebacks under review',
      status_changed_at: res.body.data.status_changed_at,
      status_changed_by: admin.accountId,
      gsi2pk: 'MERCHANTS#2',
    });

    const byAdmin = await documented('GET', '/merchant/status', { token: admin.token, query: { merchant_id: owner.merchant.id } });
    expect(byAdmin.body.data).toEqual(res.body.data);
    // The merchant itself (suspended, it may still read these) sees the reason and when, not which admin.
    const own = await documented('GET', '/merchant/status', { token: owner.token });
    expect(own.body.data).toEqual({
      merchant_id: owner.merchant.id,
      status: 2,
      status_reason: change.status_reason,
      status_changed_at: res.body.data.status_changed_at,
    });
    const info = await documented('GET', '/merchant/info', { token: owner.token });
    expect(info.body.data).toMatchObject({
      id: owner.merchant.id,
      status: 2,
      status_reason: change.status_reason,
      status_changed_at: res.body.data.status_changed_at,
    });
    expect(info.body.data).not.toHaveProperty('status_changed_by');
    const listed = (await page({ status: 2, limit: 100 })).items.find((merchant) => merchant.id === owner.merchant.id);
    expect(listed).toMatchObject({ status_reason: change.status_reason, status_changed_by: admin.accountId });
  });

  it('answers exactly as before without a reason, and a change without one removes the last reason', async () => {
    const owner = await merchantWithToken(deps);
    await setStatus({ merchant_id: owner.merchant.id, status: MerchantStatus.suspended, reason: 'fraud report' });
    const plain = await setStatus({ merchant_id: owner.merchant.id, status: MerchantStatus.active });
    expect(plain.body).toEqual({ code: 200, message: 'success', data: { merchant_id: owner.merchant.id, status: 1 } });
    const status = await documented('GET', '/merchant/status', { token: admin.token, query: { merchant_id: owner.merchant.id } });
    expect(status.body.data).toEqual({ merchant_id: owner.merchant.id, status: 1 });
    const info = await documented('GET', '/merchant/info', { token: owner.token });
    expect(Object.keys(info.body.data)).not.toContain('status_reason');
    const item = (await itemsOfType(deps, 'merchant')).find((merchant) => merchant.id === owner.merchant.id)!;
    expect(item).not.toHaveProperty('status_reason');
    expect(item).toMatchObject({ status_changed_by: admin.accountId, status_changed_at: expect.any(String) });
  });

  it('refuses a blank or too long reason naming it, and a non-admin, writing nothing', async () => {
    const owner = await merchantWithToken(deps);
    const before = await scanAll(deps);
    for (const reason of ['', '   ', 'x'.repeat(501), 42]) {
      const res = await setStatus({ merchant_id: owner.merchant.id, status: MerchantStatus.suspended, reason });
      expect(res.status, JSON.stringify(reason)).toBe(400);
      expect(res.body.message).toMatch(/^body\.reason: /);
    }
    const notAdmin = await setStatus({ merchant_id: owner.merchant.id, status: MerchantStatus.suspended, reason: 'self-suspension' }, owner.token);
    expect(notAdmin.status).toBe(403);
    expect(await scanAll(deps)).toEqual(before);
    // 500 characters once trimmed is the most.
    const longest = await setStatus({ merchant_id: owner.merchant.id, status: MerchantStatus.active, reason: ` ${'y'.repeat(500)} ` });
    expect(longest.status).toBe(200);
    expect(longest.body.data.status_reason).toBe('y'.repeat(500));
  });

  it('lists a merchant made through create_merchant as pending with its index keys', async () => {
    const account = await accountWithToken(deps);
    const merchant = await createMerchant(deps, account.claims, MerchantPayload.parse({ merchant_name: 'Fresh Studio' }));
    const item = (await itemsOfType(deps, 'merchant')).find((m) => m.id === merchant.id)!;
    expect(item).toMatchObject({
      ...merchantKey(account.accountId),
      gsi2pk: 'MERCHANTS#0',
      gsi2sk: `${merchant.create_time}#${String(merchant.id).padStart(12, '0')}`,
    });
    expect((await page({ limit: 1 })).items[0]!.id).toBe(merchant.id);
  });
});
