import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Hono } from 'hono';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { revocationKey } from '../core/access/keys.js';
import { STATE_TTL_MS } from '../core/access/principals.js';
import { MerchantStatus } from '../core/merchants/models.js';
import { balanceOf } from '../core/tickets/balances.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { accountWithToken } from './support/merchants.js';
import { giveTickets, playerWithTokens, projectWithLevel } from './support/payments.js';

/**
 * Attacks with leaked or misused tokens through the HTTP API, with real tokens: a game token spending in another
 * merchant's project, unknown projects, a suspended merchant's tokens, and revoked tokens. Every refusal
 * writes nothing.
 */
let deps: TestDeps;
let app: Hono;
let admin: Awaited<ReturnType<typeof accountWithToken>>;
const base = '/v2-testing';

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
  admin = await accountWithToken(deps, 'admin');
});

/** A shop (merchant, project, level, a game of the merchant) and a player holding `tickets` of it. */
async function shopAndPlayer(tickets = 10) {
  const shop = await projectWithLevel(deps);
  const player = await playerWithTokens(deps, shop.gameCode);
  await giveTickets(deps, player.uid, shop.project.project_name, 1, tickets);
  const balance = () => balanceOf(deps, { uid: player.uid, projectName: shop.project.project_name, level: 1 });
  const spend = (token: string, amount = 1, projectName = shop.project.project_name) =>
    call(app, 'POST', `${base}/account/game/minus_tickets`, { token, body: { userId: player.uid, projectName, level: 1, amount } });
  return { shop, player, balance, spend };
}

/** Moves the clock the deps see by `ms` (token issue times, the remembered merchant state). */
const later = (ms: number) => deps.setNow(new Date(deps.now().getTime() + ms));

const setStatus = (merchantId: number, status: number) =>
  call(app, 'POST', `${base}/merchant/status`, { token: admin.token, body: { merchant_id: merchantId, status } });

describe("a game token spends only in projects of its own game's merchant", () => {
  it("refuses merchant A's game token in merchant B's project, and a token for no game, writing nothing", async () => {
    const a = await shopAndPlayer();
    const b = await projectWithLevel(deps);
    await giveTickets(deps, a.player.uid, b.project.project_name, 1, 10);
    const noGame = await playerWithTokens(deps);
    const before = await itemCount(deps);

    const crossed = await a.spend(a.player.game, 1, b.project.project_name);
    expect(crossed.status).toBe(403);
    expect(crossed.body).toEqual({
      statusCode: 403,
      message: expect.stringMatching(/^projectName: .*not of the game this token is for/),
      error: 'access.other_game',
    });
    const tokenWithoutGame = (await deps.tokens.issue('game', a.player.uid)).token;
    expect((await a.spend(tokenWithoutGame)).status).toBe(403);
    expect(
      (
        await call(app, 'POST', `${base}/account/game/minus_tickets`, {
          token: noGame.game,
          body: { userId: noGame.uid, projectName: a.shop.project.project_name, level: 1, amount: 1 },
        })
      ).status,
    ).toBe(403);
    expect(await itemCount(deps)).toBe(before);
    expect(await balanceOf(deps, { uid: a.player.uid, projectName: b.project.project_name, level: 1 })).toBe(10);

    // Its own merchant's project: accepted.
    expect((await a.spend(a.player.game)).status).toBe(201);
    expect(await a.balance()).toBe(9);
  });

  it('answers 404 for an unknown project on every path that names one, writing nothing', async () => {
    const { shop, player } = await shopAndPlayer();
    const owner = shop.owner.token;
    const missing = `no-such-${randomUUID().slice(0, 8)}`;
    const before = await itemCount(deps);
    const attempts = [
      call(app, 'POST', `${base}/account/game/minus_tickets`, { token: shop.server, body: { userId: player.uid, projectName: missing, level: 1, amount: 1 } }),
      call(app, 'POST', `${base}/account/game/minus_tickets`, { token: player.game, body: { userId: player.uid, projectName: missing, level: 1, amount: 1 } }),
      call(app, 'GET', `${base}/account/game/tickets`, { token: player.platform, query: { projectName: missing, level: 1 } }),
      call(app, 'GET', `${base}/account/game/tickets`, { token: shop.server, query: { projectName: missing, level: 1, userId: player.uid } }),
      call(app, 'GET', `${base}/account/game/remainBalance`, { token: player.platform, query: { projectName: missing } }),
      call(app, 'GET', `${base}/account/game/remainBalance`, { token: shop.server, query: { projectName: missing, userId: player.uid } }),
      call(app, 'POST', `${base}/account/user/rechargeOrder`, {
        token: player.platform,
        body: { userId: player.uid, project: missing, priceId: 1, level: 1, amount: 1500000000, prevId: -1 },
      }),
      call(app, 'GET', `${base}/account/user/getDepositaddress`, { token: player.platform, query: { project: missing } }),
      call(app, 'POST', `${base}/account/vendor/order`, {
        token: player.platform,
        body: { userId: player.uid, goodsId: 1, quantity: 1, projectName: missing },
      }),
      call(app, 'POST', `${base}/wallet/vendor/reward`, {
        token: shop.server,
        body: { billNo: `R-${randomUUID()}`, userId: player.uid, projectName: missing, level: 1, amount: 1 },
      }),
      call(app, 'POST', `${base}/merchant/goods`, { token: owner, body: { name: 'Potion', projectName: missing, level: 1, price: 1 } }),
      call(app, 'POST', `${base}/merchant/projects/levels`, { token: owner, body: { project_name: missing, level: 1, amount: 1, tickets: 1, status: 1 } }),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(404);
      expect(JSON.stringify(answer.body)).toContain(`no project ${missing}`);
    }
    expect(await itemCount(deps)).toBe(before);
  });
});

describe("a suspended merchant's tokens", () => {
  it('stop moving value at once, and everything else within the documented bound; console reads stay', async () => {
    const { shop, player, spend, balance } = await shopAndPlayer();
    // Warm the remembered state: the server token has been used for a read before the suspension.
    const read = () =>
      call(app, 'GET', `${base}/account/game/tickets`, { token: shop.server, query: { projectName: shop.project.project_name, level: 1, userId: player.uid } });
    expect((await read()).status).toBe(200);
    expect((await setStatus(shop.owner.merchant.id, MerchantStatus.suspended)).status).toBe(200);
    const before = await itemCount(deps);

    const spent = await spend(shop.server);
    expect(spent.status).toBe(403);
    expect(spent.body.message).toBe('merchant is suspended');
    const reward = await call(app, 'POST', `${base}/wallet/vendor/reward`, {
      token: shop.server,
      body: { billNo: `R-${randomUUID()}`, userId: player.uid, projectName: shop.project.project_name, level: 1, amount: 5 },
    });
    expect(reward.status).toBe(403);
    expect(await itemCount(deps)).toBe(before);
    expect(await balance()).toBe(10);

    // A read may be served from the remembered state for at most STATE_TTL_MS; after it, refused.
    later(STATE_TTL_MS + 1_000);
    expect((await read()).status).toBe(403);

    // The console: writes refused, its own records still readable (it sees why).
    const console_ = shop.owner.token;
    expect(
      (
        await call(app, 'POST', `${base}/merchant/projects/levels`, {
          token: console_,
          body: { project_name: shop.project.project_name, level: 2, amount: 1, tickets: 1, status: 1 },
        })
      ).status,
    ).toBe(403);
    expect((await call(app, 'GET', `${base}/merchant/info`, { token: console_ })).body.data.status).toBe(MerchantStatus.suspended);
    expect((await call(app, 'GET', `${base}/merchant/status`, { token: console_ })).status).toBe(200);
    expect(await itemCount(deps)).toBe(before);

    // Reactivated: value moves again at once.
    expect((await setStatus(shop.owner.merchant.id, MerchantStatus.active)).status).toBe(200);
    expect((await spend(shop.server)).status).toBe(201);
    expect(await balance()).toBe(9);
    deps.setNow(undefined);
  });
});

describe('token revocation without a key change', () => {
  it("revokes a merchant's server tokens: old ones are 401, new ones work", async () => {
    const { shop, spend, balance } = await shopAndPlayer();
    expect((await spend(shop.server)).status).toBe(201);
    const revoke = await call(app, 'POST', `${base}/merchant/tokens/revoke`, { token: shop.owner.token, body: { tokens: 'server' } });
    expect(revoke.status).toBe(200);
    expect(revoke.body.data).toMatchObject({ account_id: shop.owner.accountId, tokens: 'server' });
    const before = await itemCount(deps);
    const refused = await spend(shop.server);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('token has been revoked');
    expect(await itemCount(deps)).toBe(before);

    // The console session was not revoked; a server token issued a second later works.
    later(1_000);
    const fresh = await call(app, 'GET', `${base}/merchant/token`, { token: shop.owner.token });
    expect(fresh.status).toBe(200);
    expect((await spend(fresh.body.data.accessToken)).status).toBe(201);
    expect(await balance()).toBe(8);
    deps.setNow(undefined);
  });

  it("revokes console sessions of one's own account, and an admin revokes another account's", async () => {
    const { shop } = await shopAndPlayer();
    const other = await projectWithLevel(deps);
    expect((await call(app, 'POST', `${base}/merchant/tokens/revoke`, { token: shop.owner.token, body: { tokens: 'console' } })).status).toBe(200);
    expect((await call(app, 'GET', `${base}/merchant/info`, { token: shop.owner.token })).status).toBe(401);
    // The merchant's server token is a different set: still valid.
    expect(
      (
        await call(app, 'GET', `${base}/account/game/remainBalance`, {
          token: shop.server,
          query: { projectName: shop.project.project_name, userId: randomUUID() },
        })
      ).status,
    ).toBe(200);

    const notAdmin = await call(app, 'POST', `${base}/merchant/admin/tokens/revoke`, {
      token: other.owner.token,
      body: { account_id: shop.owner.accountId, tokens: 'server' },
    });
    expect(notAdmin.status).toBe(403);
    const byAdmin = await call(app, 'POST', `${base}/merchant/admin/tokens/revoke`, {
      token: admin.token,
      body: { account_id: other.owner.accountId, tokens: 'server' },
    });
    expect(byAdmin.status).toBe(200);
    const refused = await call(app, 'GET', `${base}/account/game/remainBalance`, {
      token: other.server,
      query: { projectName: other.project.project_name, userId: randomUUID() },
    });
    expect(refused.status).toBe(401);
  });

  it('keeps a console session signed in within the same second as a revocation, and refuses one issued just before it', async () => {
    const owner = await accountWithToken(deps);
    const second = Math.floor(Date.now() / 1000 + 10) * 1000;
    const issueAt = async (ms: number) => {
      deps.setNow(new Date(second + ms));
      return (await deps.tokens.issue('merchant', owner.accountId, { role: 'merchant', email: owner.email })).token;
    };
    const info = (token: string) => call(app, 'GET', `${base}/merchant/info`, { token });
    const early = await issueAt(100);
    deps.setNow(new Date(second + 200));
    const revoke = await call(app, 'POST', `${base}/merchant/tokens/revoke`, { token: early, body: { tokens: 'console' } });
    expect(revoke.body.data.revoked_before).toBe(new Date(second + 200).toISOString());
    const same = await issueAt(200);
    const after = await issueAt(201);
    const refusedEarly = await info(early);
    expect([refusedEarly.status, refusedEarly.body.error]).toEqual([401, 'auth.token_revoked']);
    expect((await info(same)).status).toBe(401);
    // Signed in again 1 ms after the sign-out, in the same second: the new session works.
    expect((await info(after)).body.error).not.toBe('auth.token_revoked');
    deps.setNow(undefined);
  });

  it('reads a revocation written in whole seconds as the end of that second', async () => {
    const owner = await accountWithToken(deps);
    const second = Math.floor(Date.now() / 1000 + 20);
    await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...revocationKey(owner.accountId), type: 'revocation', consoleBefore: second } }));
    deps.setNow(new Date(second * 1000 + 999));
    const inTheSecond = (await deps.tokens.issue('merchant', owner.accountId, { role: 'merchant', email: owner.email })).token;
    deps.setNow(new Date(second * 1000 + 1_000));
    const next = (await deps.tokens.issue('merchant', owner.accountId, { role: 'merchant', email: owner.email })).token;
    const info = (token: string) => call(app, 'GET', `${base}/merchant/info`, { token });
    expect((await info(inTheSecond)).body.error).toBe('auth.token_revoked');
    expect((await info(next)).body.error).not.toBe('auth.token_revoked');
    deps.setNow(undefined);
  });
});
