import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { MerchantStatus } from '../core/merchants/models.js';
import { NOTICE_DAYS } from '../core/privacy/keys.js';
import { NOTICE_PAGE, writeNotices } from '../core/privacy/notices.js';
import { createWithoutkeyApp } from '../functions/withoutkey.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { merchantWithToken } from './support/merchants.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';

/**
 * player_deletions (docs/api.md, "Players' data: export and deletion"): a studio reads the players who deleted
 * their account from its notices (written by the deletion, core/privacy/notices.ts), newest first, by id only,
 * a page at a time; never another studio's.
 */
let deps: TestDeps;
let app: ReturnType<typeof createWithoutkeyApp>;
const base = '/v2-testing';
const path = '/merchant/players/deletions';
const document = servedDocument(base);

beforeAll(async () => {
  deps = await createTestDeps();
  app = createWithoutkeyApp(deps);
});

/** A studio: its console token and its server token. */
async function studio(status: number = MerchantStatus.active) {
  const owner = await merchantWithToken(deps, status);
  const server = (await deps.tokens.issue('server', owner.accountId, { merchant_id: owner.merchant.id })).token;
  return { accountId: owner.accountId, merchantId: owner.merchant.id, console: owner.token, server };
}

/** GET the list, checked against the served OpenAPI document. */
async function list(token: string | undefined, query?: Record<string, string>) {
  const res = await call(app, 'GET', `${base}${path}`, { token, query });
  expect(documentErrors(document, path, 'get', res.status, res.body)).toEqual([]);
  return res;
}

const page = async (token: string, query?: Record<string, string>) => {
  const res = await list(token, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ code: 200, message: 'success' });
  return res.body.data as { items: { game_player_id: string; deleted_at: string }[]; next: string | null };
};

/** Deletions of new players, one a second from `start`, each told to `studios`; answered newest first. */
async function deleted(count: number, studios: string[], start = Date.now() - 3_600_000) {
  const notices = Array.from({ length: count }, (_, i) => ({ uid: randomUUID(), at: new Date(start + i * 1000).toISOString() }));
  for (let i = 0; i < notices.length; i += 25) await Promise.all(notices.slice(i, i + 25).map((n) => writeNotices(deps, n.uid, n.at, studios)));
  return notices.reverse().map((n) => ({ game_player_id: n.uid, deleted_at: n.at }));
}

describe('player_deletions', () => {
  it("lists the studio's deleted players newest first, ids only, for its console and its server tokens alike", async () => {
    const [mine, theirs] = [await studio(), await studio()];
    const both = await deleted(2, [mine.accountId, theirs.accountId]);
    const onlyMine = await deleted(3, [mine.accountId], Date.now() - 1_800_000);
    const onlyTheirs = await deleted(2, [theirs.accountId]);
    const expected = [...onlyMine, ...both];
    for (const token of [mine.console, mine.server]) expect(await page(token)).toEqual({ items: expected, next: null });
    expect(await page(theirs.console)).toEqual({ items: [...onlyTheirs, ...both].sort((a, b) => b.deleted_at.localeCompare(a.deleted_at)), next: null });
    expect(await page((await studio()).console)).toEqual({ items: [], next: null });
  });

  it(`pages ${NOTICE_PAGE} at a time through cursors, each player once, and refuses another studio's cursor`, async () => {
    const [mine, theirs] = [await studio(), await studio()];
    const expected = await deleted(230, [mine.accountId]);
    await deleted(5, [theirs.accountId]);
    const seen: string[] = [];
    const sizes: number[] = [];
    let next: string | null = null;
    let first: string | null = null;
    do {
      const data = await page(mine.server, next ? { cursor: next } : undefined);
      sizes.push(data.items.length);
      seen.push(...data.items.map((item) => item.game_player_id));
      next = data.next;
      first ??= next;
    } while (next);
    expect(sizes).toEqual([100, 100, 30]);
    expect(seen).toEqual(expected.map((item) => item.game_player_id));

    const refused = await list(theirs.console, { cursor: first! });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: 400, message: 'query.cursor: not the `next` of a previous page of this read', data: null, error: 'input.invalid' });
    // Altered to another place of the studio's own list (its newest notice's key): still not a `next` we gave.
    const value = JSON.parse(Buffer.from(first!, 'base64url').toString('utf8'));
    value.k.sk = `${expected[0]!.deleted_at}#${expected[0]!.game_player_id}`;
    const altered = await list(mine.console, { cursor: Buffer.from(JSON.stringify(value)).toString('base64url') });
    expect(altered.status).toBe(400);
    expect(altered.body).toEqual(refused.body);
    const garbage = await list(mine.console, { cursor: 'bm90LWpzb24' });
    expect(garbage.status).toBe(400);
    expect(garbage.body.message).toMatch(/^query\.cursor: /);
  });

  it('with since, lists only those deleted after it, and pages within it', async () => {
    const mine = await studio();
    const all = await deleted(150, [mine.accountId]);
    const since = all[120]!.deleted_at;
    const newer = await page(mine.console, { since });
    expect(newer).toEqual({ items: all.slice(0, 120).slice(0, 100), next: expect.any(String) });
    const rest = await page(mine.console, { since, cursor: newer.next! });
    expect(rest).toEqual({ items: all.slice(100, 120), next: null });
    // The same instant in another offset, and a cursor read without since that lies past it.
    const offset = new Date(Date.parse(since)).toISOString().replace('Z', '+00:00');
    expect((await page(mine.console, { since: offset })).items).toHaveLength(100);
    const past = await page(mine.console, { cursor: (await page(mine.console)).next! });
    expect(past.items).toHaveLength(50);
    expect((await list(mine.console, { since: all[10]!.deleted_at, cursor: (await page(mine.console)).next! })).status).toBe(400);
    for (const bad of ['yesterday', '2026-13-01T00:00:00Z', '2026-01-01']) {
      const res = await list(mine.console, { since: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body.message).toMatch(/^query\.since: /);
    }
  });

  it("takes since only within the years the keys' times are written in (0000 to 9999, UTC), and nothing is after the last of them", async () => {
    const mine = await studio();
    const all = await deleted(3, [mine.accountId]);
    // The last millisecond a key can hold: a millisecond later is written `+010000-…`, which sorts before every key.
    expect(await page(mine.console, { since: '9999-12-31T23:59:59.999Z' })).toEqual({ items: [], next: null });
    expect(await page(mine.console, { since: '0000-01-01T00:00:00Z' })).toEqual({ items: all, next: null });
    // No page follows the last millisecond: a cursor of the whole list is not one of that read.
    await deleted(100, [mine.accountId]);
    const cursor = (await page(mine.console)).next!;
    const afterTheLast = await list(mine.console, { since: '9999-12-31T23:59:59.999Z', cursor });
    expect(afterTheLast.status).toBe(400);
    expect(afterTheLast.body.message).toMatch(/^query\.cursor: /);
    // Instants past either end, however they are written, name the field.
    for (const outside of ['9999-12-31T23:59:59.999-00:01', '9999-12-31T23:30:00-01:00', '0000-01-01T00:00:00+00:01']) {
      const res = await list(mine.console, { since: outside });
      expect(res.status, outside).toBe(400);
      expect(res.body, outside).toEqual({ code: 400, message: expect.stringMatching(/^query\.since: .*0000.*9999/), data: null, error: 'input.invalid' });
    }
  });

  it(`stops showing a notice once its ${NOTICE_DAYS} days are over`, async () => {
    const mine = await studio();
    const [notice] = await deleted(1, [mine.accountId]);
    expect((await page(mine.console)).items).toEqual([notice]);
    deps.setNow(new Date(Date.parse(notice!.deleted_at) + (NOTICE_DAYS * 86_400 + 1) * 1000));
    try {
      // A token of that day: today's would have expired by then.
      const server = (await deps.tokens.issue('server', mine.accountId, { merchant_id: mine.merchantId })).token;
      expect((await page(server)).items).toEqual([]);
    } finally {
      deps.setNow(undefined);
    }
  });

  it("takes a console or the studio's server token: a suspended merchant's console still reads; its server token, a player's token or none do not", async () => {
    const suspended = await studio(MerchantStatus.suspended);
    const [notice] = await deleted(1, [suspended.accountId]);
    expect((await page(suspended.console)).items).toEqual([notice]);
    const server = await list(suspended.server);
    expect(server.status).toBe(403);
    expect(server.body.error).toBe('merchant.suspended');
    for (const token of [undefined, (await deps.tokens.issue('platform', randomUUID())).token]) {
      const res = await list(token);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe(token === undefined ? 'auth.token_missing' : 'auth.token_invalid');
    }
  });
});
