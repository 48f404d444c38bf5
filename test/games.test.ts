import { beforeAll, describe, expect, it } from 'vitest';
import { createInnerApp } from '../functions/inner.js';
import { call } from './support/http.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { accountWithToken, merchantWithToken } from './support/merchants.js';
import { gamePayload, newCode } from './support/games.js';

let deps: TestDeps;
let app: ReturnType<typeof createInnerApp>;
const base = '/v2-testing';

beforeAll(async () => {
  deps = await createTestDeps();
  app = createInnerApp(deps);
});

async function saveGame(token: string, code = newCode()) {
  const saved = await call(app, 'POST', `${base}/merchant/games/save`, { token, body: gamePayload(code) });
  expect(saved.status).toBe(200);
  return saved.body.data;
}

describe('savemerchantgame and game_detail', () => {
  it('creates a game with a unique code and shows it while the merchant is active', async () => {
    const { token, merchant } = await merchantWithToken(deps);
    const code = newCode();
    const game = await saveGame(token, code);
    expect(game).toMatchObject({ code, gameName: `Name of ${code}`, head_image: 'merchant/1/cover.png', merchant_id: merchant.id });

    const detail = await call(app, 'GET', `${base}/merchant/games/detail`, { query: { code } });
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual({ code: 200, message: 'success', data: game });

    const again = await call(app, 'POST', `${base}/merchant/games/save`, { token, body: gamePayload(code) });
    expect(again.status).toBe(409);
    const other = await merchantWithToken(deps);
    const taken = await call(app, 'POST', `${base}/merchant/games/save`, { token: other.token, body: gamePayload(code) });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toMatch(/^code:/);
  });

  it('hides games of a pending merchant until an admin activates it, and hides them again on suspension', async () => {
    const pending = await merchantWithToken(deps, 0);
    const admin = await accountWithToken(deps, 'admin');
    const game = await saveGame(pending.token);
    const before = await call(app, 'GET', `${base}/merchant/games/detail`, { query: { code: game.code } });
    expect(before.status).toBe(404);
    expect((await call(app, 'GET', `${base}/merchant/merchant/page`)).body.data[game.code]).toBeUndefined();

    await call(app, 'POST', `${base}/merchant/status`, { token: admin.token, body: { merchant_id: pending.merchant.id, status: 1 } });
    expect((await call(app, 'GET', `${base}/merchant/games/detail`, { query: { code: game.code } })).status).toBe(200);
    expect((await call(app, 'GET', `${base}/merchant/merchant/page`)).body.data[game.code]).toEqual(game);

    await call(app, 'POST', `${base}/merchant/status`, { token: admin.token, body: { merchant_id: pending.merchant.id, status: 2 } });
    expect((await call(app, 'GET', `${base}/merchant/games/detail`, { query: { code: game.code } })).status).toBe(404);
    const suspendedSave = await call(app, 'POST', `${base}/merchant/games/save`, { token: pending.token, body: gamePayload(newCode()) });
    expect(suspendedSave.status).toBe(403);
  });

  it('lets one of many concurrent saves of the same code win', async () => {
    const { token } = await merchantWithToken(deps);
    const code = newCode();
    const results = await Promise.all(Array.from({ length: 8 }, () => call(app, 'POST', `${base}/merchant/games/save`, { token, body: gamePayload(code) })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
  });
});

describe('query merchant game, gamelist, query_new_merchant', () => {
  it('pages the caller games newest first and counts them', async () => {
    const { token } = await merchantWithToken(deps);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await saveGame(token));
    const first = await call(app, 'GET', `${base}/merchant/games`, { token, query: { page: 0, pageSize: 2 } });
    expect(first.body.data.total).toBe('5');
    expect(first.body.data.games.map((g: { code: string }) => g.code)).toEqual([made[4].code, made[3].code]);
    const last = await call(app, 'GET', `${base}/merchant/games`, { token, query: { page: 2, pageSize: 2 } });
    expect(last.body.data.games.map((g: { code: string }) => g.code)).toEqual([made[0].code]);
  });

  it('lists every game with its merchant fields, zero-based pages, total as text', async () => {
    const fresh = await createTestDeps();
    const freshApp = createInnerApp(fresh);
    const a = await merchantWithToken(fresh);
    const b = await merchantWithToken(fresh, 0);
    const codesMade: string[] = [];
    for (const owner of [a, b, a]) {
      const code = newCode();
      codesMade.push(code);
      expect((await call(freshApp, 'POST', `${base}/merchant/games/save`, { token: owner.token, body: gamePayload(code) })).status).toBe(200);
    }
    const page0 = await call(freshApp, 'GET', `${base}/merchant/games/list`, { token: a.token, query: { page: 0, pageSize: 2 } });
    expect(page0.status).toBe(200);
    expect(page0.body.data.total).toBe('3');
    expect(page0.body.data.games.map((g: { code: string }) => g.code)).toEqual([codesMade[2], codesMade[1]]);
    expect(page0.body.data.games[1]).toMatchObject({
      merchant_id: b.merchant.id,
      account_id: b.accountId,
      merchant_email: b.email,
      merchant_name: `Studio ${b.email}`,
      back_ground_image: [],
      social_links: [],
    });
    const page1 = await call(freshApp, 'GET', `${base}/merchant/games/list`, { token: a.token, query: { page: 1, pageSize: 2 } });
    expect(page1.body.data.games.map((g: { code: string }) => g.code)).toEqual([codesMade[0]]);
    const beyond = await call(freshApp, 'GET', `${base}/merchant/games/list`, { token: a.token, query: { page: 5 } });
    expect(beyond.body.data).toEqual({ total: '3', games: [] });

    const page = await call(freshApp, 'GET', `${base}/merchant/merchant/page`);
    expect(Object.keys(page.body.data)).toEqual([codesMade[2], codesMade[0]]);
  });

  it('answers 401 in the gamelist envelope without a token: an empty page, as the compatibility contract fixes it', async () => {
    const res = await call(app, 'GET', `${base}/merchant/games/list`, { query: { page: 0, pageSize: 10 } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 401, message: expect.any(String), data: { total: '0', games: [] }, error: 'auth.token_missing' });
  });
});

describe('update_single_game', () => {
  it('updates only the fields given, only for the owner, answering the compatibility contract 201 shape', async () => {
    const owner = await merchantWithToken(deps);
    const game = await saveGame(owner.token);
    const res = await call(app, 'POST', `${base}/merchant/games/update`, {
      token: owner.token,
      body: { code: game.code, game_name: 'Renamed', tags: ['new'] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ response: 'success', status: 201, message: `game ${game.code} updated`, name: 'Renamed' });
    const detail = await call(app, 'GET', `${base}/merchant/games/detail`, { query: { code: game.code } });
    expect(detail.body.data).toMatchObject({ gameName: 'Renamed', tags: ['new'], genre: 'rpg', describe: 'A game' });

    const intruder = await merchantWithToken(deps);
    const denied = await call(app, 'POST', `${base}/merchant/games/update`, { token: intruder.token, body: { code: game.code, game_name: 'Mine' } });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ code: 403, message: expect.stringContaining('another merchant'), data: null, error: 'access.other_owner' });
    const missing = await call(app, 'POST', `${base}/merchant/games/update`, { token: owner.token, body: { code: 'no-such-game', game_name: 'X' } });
    expect(missing.status).toBe(404);
    const unchanged = await call(app, 'GET', `${base}/merchant/games/detail`, { query: { code: game.code } });
    expect(unchanged.body.data.gameName).toBe('Renamed');
  });
});

describe('status change racing game creation', () => {
  it('leaves every game of the merchant with the liveness of its final status', async () => {
    const owner = await merchantWithToken(deps, 0);
    const admin = await accountWithToken(deps, 'admin');
    const saves = Array.from({ length: 6 }, () => call(app, 'POST', `${base}/merchant/games/save`, { token: owner.token, body: gamePayload(newCode()) }));
    const activate = call(app, 'POST', `${base}/merchant/status`, { token: admin.token, body: { merchant_id: owner.merchant.id, status: 1 } });
    const results = await Promise.all([...saves, activate]);
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const final = await call(app, 'GET', `${base}/merchant/status`, { token: owner.token });
    const mine = await call(app, 'GET', `${base}/merchant/games`, { token: owner.token, query: { pageSize: 100 } });
    for (const game of mine.body.data.games) {
      const detail = await call(app, 'GET', `${base}/merchant/games/detail`, { query: { code: game.code } });
      expect(detail.status).toBe(final.body.data.status === 1 ? 200 : 404);
    }
  });
});
