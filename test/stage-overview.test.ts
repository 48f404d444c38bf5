import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAllApps } from '../functions/apps.js';
import { createPayApp } from '../functions/pay.js';
import { dayStatsKeys, figuresOfDays, STATS_SHARDS } from '../core/platform/day-stats.js';
import { readItems } from '../core/platform/batch.js';
import { DayFiguresReader } from '../tools/local/day-figures-stream.js';
import { localConnection } from '../tools/local/dynamo.js';
import { completeByStorePurchase } from '../core/app-stores/complete.js';
import { findOrder } from '../core/payments/orders.js';
import { call } from './support/http.js';
import { createTestDeps, itemsOfType, type TestDeps } from './support/deps.js';
import { accountWithToken, merchantWithToken } from './support/merchants.js';
import { drainDayFigures } from './support/day-figures.js';
import { giveTickets, indexedPayment, playerWithTokens, projectWithLevel } from './support/payments.js';

/**
 * The stage overview (`GET /merchant/admin/overview`, docs/api.md "The stage overview"): the money figures per
 * UTC day, counted from the table's stream (core/payments/day-figures.ts, drained here as the local server's loop
 * reads it), read through the inner app by an admin; the money moved through the pay app. The clock is the deps'
 * (setNow), so each test works on days of its own.
 */

let deps: TestDeps;
let inner: ReturnType<typeof createAllApps>;
let pay: ReturnType<typeof createPayApp>;
const base = '/v2-testing';
const PRICE = 1_500_000_000;

beforeAll(async () => {
  deps = await createTestDeps({ stream: true });
  inner = createAllApps(deps);
  pay = createPayApp(deps);
});

afterEach(() => deps.setNow(undefined));

/** A shop, a player, and the money operations of the pay app as the player and the shop's game server send them. */
async function shopAndPlayer() {
  const shop = await projectWithLevel(deps);
  const player = await playerWithTokens(deps, shop.gameCode);
  const project = shop.project.project_name;
  const recharge = async () => {
    const res = await call(pay, 'POST', `${base}/account/user/rechargeOrder`, {
      token: player.platform,
      body: { userId: player.uid, project, priceId: shop.level.priceId, prevId: -1, level: 1, amount: PRICE },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { id: number; bill_no: string };
  };
  /** The order paid on chain, as the indexer stores it: what orderComplete takes. */
  const payOnChain = (order: { bill_no: string }) =>
    indexedPayment(deps, { billNo: order.bill_no, amount: String(PRICE), from: player.address, to: shop.receiveAddress });
  const complete = (order: { id: number }, transactionId: string) =>
    call(pay, 'POST', `${base}/account/user/orderComplete`, { token: player.platform, body: { orderId: order.id, transactionId } });
  const spend = (amount: number, headers: Record<string, string> = {}) =>
    call(pay, 'POST', `${base}/account/game/minus_tickets`, {
      token: shop.server,
      headers,
      body: { userId: player.uid, projectName: project, level: 1, amount },
    });
  return { shop, player, project, recharge, payOnChain, complete, spend };
}

/** The overview as an admin reads it now (a token issued at the deps' clock), once the stream is counted. */
async function overview(query: Record<string, string | number> = {}) {
  await drainDayFigures(deps);
  const admin = await accountWithToken(deps, 'admin');
  return call(inner, 'GET', `${base}/merchant/admin/overview`, { token: admin.token, query });
}

const zero = { orders_created: 0, orders_paid: 0, tickets_credited: 0, tickets_spent: 0 };

describe('the stage overview: money figures per UTC day', () => {
  it('counts orders created and paid, tickets credited and spent, on the UTC day each happened; replays count nothing', async () => {
    // Day one, late in the UTC day.
    deps.setNow(new Date('2031-05-01T23:30:00.000Z'));
    const s = await shopAndPlayer();
    const first = await s.recharge();
    await s.recharge();
    const firstDigest = await s.payOnChain(first);
    expect((await s.complete(first, firstDigest)).status).toBe(200);
    expect((await s.spend(3)).status).toBe(201);

    // An hour later it is the next UTC day.
    deps.setNow(new Date('2031-05-02T00:30:00.000Z'));
    const third = await s.recharge();
    const digest = await s.payOnChain(third);
    expect((await s.complete(third, digest)).status).toBe(200);
    const key = { 'idempotency-key': `overview-${randomUUID()}` };
    expect((await s.spend(5, key)).status).toBe(201);
    expect((await s.spend(7)).status).toBe(201);
    // Replays: the same completion, the same keyed deduction. Each answers as the first and counts nothing.
    expect((await s.complete(third, digest)).status).toBe(200);
    expect((await s.complete(first, firstDigest)).status).toBe(200);
    expect((await s.spend(5, key)).status).toBe(201);
    // A refused deduction (short) counts nothing either.
    expect((await s.spend(10_000)).status).toBe(409);

    const res = await overview({ days: 3 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ code: 200, message: 'success' });
    expect(res.body.data.days).toEqual([
      { day: '2031-04-30', ...zero },
      { day: '2031-05-01', orders_created: 2, orders_paid: 1, tickets_credited: 100, tickets_spent: 3 },
      { day: '2031-05-02', orders_created: 1, orders_paid: 1, tickets_credited: 100, tickets_spent: 12 },
    ]);
    expect(res.body.data.generated_at).toBe('2031-05-02T00:30:00.000Z');
    expect(res.body.data.jobs.map((job: { job: string }) => job.job)).toEqual(['indexer', 'settlement', 'deletions', 'rank-pages', 'rank-snapshots']);

    // 14 days by default, today last; the figures are kept on at most 16 items a day.
    const byDefault = await overview();
    expect(byDefault.body.data.days).toHaveLength(14);
    expect(byDefault.body.data.days[0].day).toBe('2031-04-19');
    expect(byDefault.body.data.days.at(-1)).toEqual({ day: '2031-05-02', orders_created: 1, orders_paid: 1, tickets_credited: 100, tickets_spent: 12 });
    const shards = (await itemsOfType(deps, 'day_stats')).filter((item) => item.day === '2031-05-02');
    expect(shards.length).toBeGreaterThan(0);
    expect(shards.length).toBeLessThanOrEqual(STATS_SHARDS);
    for (const item of shards) expect(item.pk).toMatch(/^STATS#2031-05-02#([0-9]|1[0-5])$/);
  });

  // A generous time limit: 20 shops are made one after another, and the suite may share a loaded machine.
  it('counts concurrent money requests exactly: 20 deductions, 10 recharges, and one order completed by 10 racing calls', async () => {
    deps.setNow(new Date('2031-06-10T12:00:00.000Z'));
    // Made one after another (games are created under a counter that refuses concurrent creates); spent at once.
    const players: Awaited<ReturnType<typeof shopAndPlayer>>[] = [];
    for (let i = 0; i < 20; i++) players.push(await shopAndPlayer());
    await Promise.all(players.map((p) => giveTickets(deps, p.player.uid, p.project, 1, 10)));
    const spent = await Promise.all(players.map((p, i) => p.spend(1 + (i % 3))));
    expect(spent.map((r) => r.status)).toEqual(players.map(() => 201));
    const created = await Promise.all(players.slice(0, 10).map((p) => p.recharge()));
    const racer = players[0]!;
    const digest = await racer.payOnChain(created[0]!);
    const completions = await Promise.all(Array.from({ length: 10 }, () => racer.complete(created[0]!, digest)));
    expect(completions.every((r) => r.status === 200)).toBe(true);

    const res = await overview({ days: 1 });
    const tickets = players.reduce((sum, _, i) => sum + 1 + (i % 3), 0);
    expect(res.body.data.days).toEqual([{ day: '2031-06-10', orders_created: 10, orders_paid: 1, tickets_credited: 100, tickets_spent: tickets }]);
  }, 120_000);

  it("counts one player's 20 racing deductions once each, the page their held entries move into not again", async () => {
    deps.setNow(new Date('2031-06-15T12:00:00.000Z'));
    const s = await shopAndPlayer();
    await giveTickets(deps, s.player.uid, s.project, 1, 50);
    const spent = await Promise.all(Array.from({ length: 20 }, (_, i) => s.spend(1 + (i % 2))));
    expect(spent.map((r) => r.status)).toEqual(spent.map(() => 201));
    // 20 held entries reach 16: a page of 8 moved out of the balance (core/tickets/held-ledger.ts).
    const pages = (await itemsOfType(deps, 'ledger')).filter((item) => item.pk === `USER#${s.player.uid}` && String(item.sk).startsWith('LEDGER#page#'));
    expect(pages).toHaveLength(1);
    expect((await overview({ days: 1 })).body.data.days).toEqual([{ day: '2031-06-15', ...zero, tickets_spent: 30 }]);
  });

  it('counts an order an app store purchase paid once, however many deliveries of the purchase race', async () => {
    deps.setNow(new Date('2031-06-20T09:00:00.000Z'));
    const s = await shopAndPlayer();
    const order = (await findOrder(deps, (await s.recharge()).id))!;
    const bought = { store: 'google' as const, transactionId: `GPA.${randomUUID()}`, productId: 'tickets_100' };
    // The App Store Server API and Google Play deliver a purchase more than once (the app, the notification).
    const deliveries = await Promise.allSettled(Array.from({ length: 5 }, () => completeByStorePurchase(deps, order, bought)));
    expect(deliveries.filter((d) => d.status === 'fulfilled' && d.value.credited)).toHaveLength(1);
    expect((await overview({ days: 1 })).body.data.days).toEqual([
      { day: '2031-06-20', orders_created: 1, orders_paid: 1, tickets_credited: 100, tickets_spent: 0 },
    ]);
  });

  it('costs the money operations nothing: no count on their path; a count the table refuses is made at the next pass, once', async () => {
    deps.setNow(new Date('2031-07-04T08:00:00.000Z'));
    const s = await shopAndPlayer();
    await giveTickets(deps, s.player.uid, s.project, 1, 10);
    let refused = 0;
    deps.db.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { Key?: { pk?: unknown } };
        const pk = input.Key?.pk;
        const name = typeof pk === 'string' ? pk : (pk as { S?: string } | undefined)?.S;
        if (context.commandName === 'UpdateItemCommand' && name?.startsWith('STATS#2031-07-04#')) {
          refused++;
          throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ThrottlingException', $fault: 'client' });
        }
        return next(args);
      },
      { step: 'initialize', name: 'refuseDayStats' },
    );
    try {
      expect((await s.spend(4)).status).toBe(201);
      expect((await s.recharge()).id).toEqual(expect.any(Number));
      // The operations wrote no figure themselves.
      expect(refused).toBe(0);
      // The stream's pass tries, fails, and leaves the batch to be read again.
      await expect(drainDayFigures(deps)).rejects.toThrow(/allowed throughput/);
      expect(refused).toBeGreaterThan(0);
    } finally {
      deps.db.middlewareStack.remove('refuseDayStats');
    }
    expect((await overview({ days: 1 })).body.data.days).toEqual([{ day: '2031-07-04', ...zero, orders_created: 1, tickets_spent: 4 }]);
    expect((await s.spend(1)).status).toBe(201);
    expect((await overview({ days: 1 })).body.data.days).toEqual([{ day: '2031-07-04', ...zero, orders_created: 1, tickets_spent: 5 }]);
  });
});

describe("the local server's day figures loop", () => {
  it("reads from the stream's latest records when it starts, so a restart counts nothing twice", async () => {
    deps.setNow(new Date('2031-08-08T08:00:00.000Z'));
    const s = await shopAndPlayer();
    await giveTickets(deps, s.player.uid, s.project, 1, 10);
    expect((await s.spend(2)).status).toBe(201);
    expect((await overview({ days: 1 })).body.data.days).toEqual([{ day: '2031-08-08', ...zero, tickets_spent: 2 }]);
    // A server started again: its reader begins at the latest records; what the first counted is not read again.
    const restarted = new DayFiguresReader(deps, localConnection(deps.endpoint), 'latest');
    await restarted.drain();
    expect((await s.spend(3)).status).toBe(201);
    await restarted.drain();
    // The test's own reader (drainDayFigures, in overview) would count the 3 as well: read the figures directly.
    const [day] = figuresOfDays(['2031-08-08'], await readItems(deps, dayStatsKeys(['2031-08-08'])));
    expect(day).toEqual({ ...zero, tickets_spent: 5 });
  });
});

describe('the stage overview: who may read it, and its query', () => {
  it('is for admins: a merchant is 403 auth.admin_only, no token 401', async () => {
    const merchant = await merchantWithToken(deps);
    const refused = await call(inner, 'GET', `${base}/merchant/admin/overview`, { token: merchant.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 403, data: null, error: 'auth.admin_only' });
    expect((await call(inner, 'GET', `${base}/merchant/admin/overview`)).status).toBe(401);
  });

  it.each(['0', '32', 'abc', '01', '1.5', ''])('refuses days=%j with 400 naming the field', async (days) => {
    const res = await overview({ days });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400, data: null, error: 'input.invalid', message: expect.stringMatching(/^query\.days/) });
  });

  it('takes days from 1 to 31', async () => {
    expect((await overview({ days: 1 })).body.data.days).toHaveLength(1);
    expect((await overview({ days: 31 })).body.data.days).toHaveLength(31);
  });
});
