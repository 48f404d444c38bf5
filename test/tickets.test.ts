import { beforeAll, describe, expect, it } from 'vitest';
import { createPayApp } from '../functions/pay.js';
import { balanceOf } from '../core/tickets/balances.js';
import { call } from './support/http.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { giveTickets, playerWithTokens, projectWithLevel } from './support/payments.js';

let deps: TestDeps;
let app: ReturnType<typeof createPayApp>;
const base = '/v2-testing/account/game';

beforeAll(async () => {
  deps = await createTestDeps();
  app = createPayApp(deps);
});

async function setup(balance: number) {
  const shop = await projectWithLevel(deps);
  const player = await playerWithTokens(deps, shop.gameCode);
  if (balance > 0) await giveTickets(deps, player.uid, shop.project.project_name, 1, balance);
  const body = (amount: number) => ({ userId: player.uid, projectName: shop.project.project_name, level: 1, amount });
  const balanceNow = () => balanceOf(deps, { uid: player.uid, projectName: shop.project.project_name, level: 1 });
  return { shop, player, body, balanceNow };
}

describe('minus_tickets', () => {
  it('deducts with the seed 201 envelope, for the project merchant server or the player game token', async () => {
    const { shop, player, body, balanceNow } = await setup(10);
    const byServer = await call(app, 'POST', `${base}/minus_tickets`, { token: shop.server, body: body(3) });
    expect(byServer.status).toBe(201);
    expect(byServer.body).toEqual({ data: expect.stringMatching(/^minus#/), statusCode: 201, message: 'success', totalPage: 1 });
    const byPlayer = await call(app, 'POST', `${base}/minus_tickets`, { token: player.game, body: body(2) });
    expect(byPlayer.status).toBe(201);
    expect(await balanceNow()).toBe(5);
  });

  it('refuses another merchant, another player, a platform token, and a short balance, changing nothing', async () => {
    const { player, body, balanceNow } = await setup(5);
    const stranger = await projectWithLevel(deps);
    const other = await playerWithTokens(deps);
    const before = await itemCount(deps);
    expect((await call(app, 'POST', `${base}/minus_tickets`, { token: stranger.server, body: body(1) })).status).toBe(403);
    expect((await call(app, 'POST', `${base}/minus_tickets`, { token: other.game, body: body(1) })).status).toBe(403);
    expect((await call(app, 'POST', `${base}/minus_tickets`, { token: player.platform, body: body(1) })).status).toBe(401);
    const short = await call(app, 'POST', `${base}/minus_tickets`, { token: player.game, body: body(6) });
    expect(short.status).toBe(409);
    expect(short.body).toEqual({ statusCode: 409, message: expect.stringMatching(/^amount:/) });
    expect(await itemCount(deps)).toBe(before);
    expect(await balanceNow()).toBe(5);
  });

  it('honours Idempotency-Key: a retry answers the first answer and deducts once; another request with the key is 409', async () => {
    const { shop, body, balanceNow } = await setup(10);
    const headers = { 'idempotency-key': 'order-77.retry' };
    const first = await call(app, 'POST', `${base}/minus_tickets`, { token: shop.server, body: body(4), headers });
    const again = await Promise.all(Array.from({ length: 5 }, () => call(app, 'POST', `${base}/minus_tickets`, { token: shop.server, body: body(4), headers })));
    expect(first.status).toBe(201);
    for (const retry of again) expect(retry.body).toEqual(first.body);
    expect(await balanceNow()).toBe(6);
    const reused = await call(app, 'POST', `${base}/minus_tickets`, { token: shop.server, body: body(5), headers });
    expect(reused.status).toBe(409);
    expect(reused.body.message).toMatch(/^Idempotency-Key/);
    const bad = await call(app, 'POST', `${base}/minus_tickets`, { token: shop.server, body: body(1), headers: { 'idempotency-key': 'has spaces' } });
    expect(bad.status).toBe(400);
    expect(await balanceNow()).toBe(6);
  });

  it('200 simultaneous deductions of 1 from a balance of 100: exactly 100 succeed and the balance is 0', async () => {
    const { shop, body, balanceNow } = await setup(100);
    const results = await Promise.all(Array.from({ length: 200 }, () => call(app, 'POST', `${base}/minus_tickets`, { token: shop.server, body: body(1) })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(100);
    expect(results.filter((r) => r.status === 409)).toHaveLength(100);
    expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(await balanceNow()).toBe(0);
  });
});

describe('game/tickets and remainBalance', () => {
  it('reads balances: the player their own, a server of the project any user', async () => {
    const { shop, player } = await setup(7);
    await giveTickets(deps, player.uid, shop.project.project_name, 2, 5);
    const query = { projectName: shop.project.project_name, level: 1 };
    const own = await call(app, 'GET', `${base}/tickets`, { token: player.platform, query });
    expect(own.body).toEqual({ data: { userId: player.uid, ...query, balance: 7 }, statusCode: 200, message: 'success', totalPage: 1 });
    const server = await call(app, 'GET', `${base}/tickets`, { token: shop.server, query: { ...query, userId: player.uid } });
    expect(server.body.data.balance).toBe(7);
    expect((await call(app, 'GET', `${base}/tickets`, { token: shop.server, query })).status).toBe(400);
    const stranger = await projectWithLevel(deps);
    expect((await call(app, 'GET', `${base}/tickets`, { token: stranger.server, query: { ...query, userId: player.uid } })).status).toBe(403);

    const remain = await call(app, 'GET', `${base}/remainBalance`, { token: player.platform });
    expect(remain.body.data.total).toBe(12);
    expect(remain.body.data.balances).toHaveLength(2);
    const byServer = await call(app, 'GET', `${base}/remainBalance`, { token: shop.server, query: { userId: player.uid, projectName: shop.project.project_name } });
    expect(byServer.body.data.total).toBe(12);
    const none = await call(app, 'GET', `${base}/tickets`, { token: player.platform, query: { projectName: shop.project.project_name, level: 9 } });
    expect(none.body.data.balance).toBe(0);
  });
});
