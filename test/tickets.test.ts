import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPayApp } from '../functions/pay.js';
import { balanceOf, StoredBalance, StoredLedger } from '../core/tickets/balances.js';
import { heldLinesOf, ledgerLinesOf } from '../core/tickets/held-ledger.js';
import { ledgerMismatches } from './support/ledgers.js';
import { queryItems } from '../core/platform/query.js';
import { commandCounter } from './support/rankings.js';
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
  it('deducts in the compatibility contract 201 envelope, for the project merchant server or the player game token', async () => {
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
    expect(short.body).toEqual({ statusCode: 409, message: expect.stringMatching(/^amount:/), error: 'tickets.balance_short' });
    expect(await itemCount(deps)).toBe(before);
    expect(await balanceNow()).toBe(5);
  });

  it('honours Idempotency-Key: a retry answers the first answer and deducts once; another request with the key is 422', async () => {
    const { shop, body, balanceNow } = await setup(10);
    const headers = { 'idempotency-key': 'order-77.retry' };
    const first = await call(app, 'POST', `${base}/minus_tickets`, { token: shop.server, body: body(4), headers });
    const again = await Promise.all(
      Array.from({ length: 5 }, () => call(app, 'POST', `${base}/minus_tickets`, { token: shop.server, body: body(4), headers })),
    );
    expect(first.status).toBe(201);
    expect(first.body.data).toBe('minus#order-77.retry');
    for (const retry of again) expect(retry.body).toEqual(first.body);
    expect(await balanceNow()).toBe(6);
    // The draft's sf-string form of the same key is the same key.
    const quoted = await call(app, 'POST', `${base}/minus_tickets`, { token: shop.server, body: body(4), headers: { 'idempotency-key': '"order-77.retry"' } });
    expect(quoted.body).toEqual(first.body);
    const reused = await call(app, 'POST', `${base}/minus_tickets`, { token: shop.server, body: body(5), headers });
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ statusCode: 422, message: expect.stringMatching(/^Idempotency-Key/), error: 'idempotency.key_reused' });
    const bad = await call(app, 'POST', `${base}/minus_tickets`, { token: shop.server, body: body(1), headers: { 'idempotency-key': 'has spaces' } });
    expect(bad.status).toBe(400);
    expect(await balanceNow()).toBe(6);
  });

  it('200 clients deducting 1 at once from a balance of 100, each retrying a 409 that says retry: exactly 100 succeed and the balance is 0', async () => {
    const { shop, player, body, balanceNow } = await setup(100);
    // One balance item takes one transaction at a time (DynamoDB's conflict rule, emulated in the tests): a
    // request that keeps colliding ends in a 409 asking to retry, and a client does. A short balance is final.
    const client = async () => {
      for (;;) {
        const res = await call(app, 'POST', `${base}/minus_tickets`, { token: shop.server, body: body(1) });
        if (res.status !== 409 || !/retry/.test(res.body.message)) return res;
      }
    };
    const results = await Promise.all(Array.from({ length: 200 }, client));
    expect(results.filter((r) => r.status === 201)).toHaveLength(100);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(100);
    for (const r of refused) expect(r.body).toEqual({ statusCode: 409, message: expect.stringMatching(/^amount:/), error: 'tickets.balance_short' });
    expect(await balanceNow()).toBe(0);
    const lines = await deductionLines(player.uid);
    expect(lines).toHaveLength(100);
    expect(new Set(lines.map((line) => line.ref))).toEqual(new Set(results.filter((r) => r.status === 201).map((r) => r.body.data)));
  });
});

/** The lines of a player's unkeyed deductions: held in their balances, and in pages (core/tickets/held-ledger.ts). */
async function deductionLines(uid: string) {
  const items = await queryItems(deps, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `USER#${uid}` }, ConsistentRead: true });
  const held = items.filter((item) => String(item.sk).startsWith('TICKETS#')).flatMap((item) => heldLinesOf(StoredBalance.parse(item)));
  const paged = items.filter((item) => String(item.sk).startsWith('LEDGER#page#')).flatMap((item) => ledgerLinesOf(StoredLedger.parse(item)));
  return [...paged, ...held];
}

describe('minus_tickets without an Idempotency-Key: the ledger entry held in the balance item', () => {
  it('is one UpdateItem; the 16th held entry moves the oldest 8 into a page, and the ledger sums at every step', async () => {
    const { shop, player, body, balanceNow } = await setup(100);
    const refs: string[] = [];
    const counter = commandCounter(deps);
    for (let i = 1; i <= 20; i++) {
      counter.start();
      const res = await call(app, 'POST', `${base}/minus_tickets`, { token: shop.server, body: body(i % 3 === 0 ? 2 : 1) });
      const sent = counter.stop();
      expect(res.status).toBe(201);
      refs.push(res.body.data);
      // The 16th deduction finds 16 held and moves a page in a transaction of its own; every other is one write.
      expect({ i, UpdateItem: sent.UpdateItem, TransactWriteItems: sent.TransactWriteItems ?? 0 }).toEqual({
        i,
        UpdateItem: 1,
        TransactWriteItems: i === 16 ? 1 : 0,
      });
      expect(
        ledgerMismatches(await queryItems(deps, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `USER#${player.uid}` } })),
      ).toEqual([]);
    }
    expect(await balanceNow()).toBe(100 - 20 - 6);
    const items = await queryItems(deps, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `USER#${player.uid}` },
      ConsistentRead: true,
    });
    const pages = items.filter((item) => String(item.sk).startsWith('LEDGER#page#'));
    expect(pages.map((page) => [page.sk, page.change, (page.entries as unknown[]).length])).toEqual([[`LEDGER#page#${refs[0]}`, -10, 8]]);
    const balance = StoredBalance.parse(items.find((item) => String(item.sk).startsWith('TICKETS#')));
    expect(balance.entries?.map((entry) => entry.ref)).toEqual(refs.slice(8));
    expect((await deductionLines(player.uid)).map((line) => line.ref)).toEqual(refs);
  });

  it("the SDK's retry of a deduction whose answer was lost finds its entry held and takes nothing more", async () => {
    const { shop, body, balanceNow } = await setup(10);
    // Below the SDK's retry: the first UpdateItem is carried out and its answer lost, so the SDK sends it again.
    let lose = true;
    deps.db.middlewareStack.add(
      (next, context) => async (args) => {
        const out = await next(args);
        if (lose && context.commandName === 'UpdateItemCommand') {
          lose = false;
          throw Object.assign(new Error('Request timed out'), { name: 'TimeoutError' });
        }
        return out;
      },
      { step: 'deserialize', name: 'loseOneUpdateAnswer' },
    );
    try {
      const res = await call(app, 'POST', `${base}/minus_tickets`, { token: shop.server, body: body(3) });
      expect(lose).toBe(false);
      expect(res.status).toBe(201);
    } finally {
      deps.db.middlewareStack.remove('loseOneUpdateAnswer');
    }
    expect(await balanceNow()).toBe(7);
  });

  it('a short balance holds nothing and answers 409', async () => {
    const { shop, player, body, balanceNow } = await setup(2);
    expect((await call(app, 'POST', `${base}/minus_tickets`, { token: shop.server, body: body(2) })).status).toBe(201);
    const short = await call(app, 'POST', `${base}/minus_tickets`, { token: shop.server, body: body(1) });
    expect(short.status).toBe(409);
    expect(await balanceNow()).toBe(0);
    expect(await deductionLines(player.uid)).toHaveLength(1);
  });
});

describe('minus_tickets Idempotency-Key scope: (caller, operation, player, key)', () => {
  const deduct = (token: string, body: unknown, key: string) =>
    call(app, 'POST', `${base}/minus_tickets`, { token, body, headers: { 'Idempotency-Key': key } });
  const ledgerOf = (uid: string) =>
    queryItems(deps, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :minus)',
      ExpressionAttributeValues: { ':pk': `USER#${uid}`, ':minus': 'LEDGER#minus#' },
      ConsistentRead: true,
    });

  it("another caller's key is its own: the player's game token reusing the game server's key deducts, and never gets the server's answer", async () => {
    const { shop, player, body, balanceNow } = await setup(10);
    const key = `shared-${randomUUID()}`;
    const byServer = await deduct(shop.server, body(4), key);
    expect(byServer.status).toBe(201);
    expect(await balanceNow()).toBe(6);

    // The same key and the same body from the player: not a retry of the server's request, so it runs.
    const byPlayer = await deduct(player.game, body(4), key);
    expect(byPlayer.status).toBe(201);
    expect(await balanceNow()).toBe(2);
    // Each caller's retry answers its own request and deducts nothing more.
    expect((await deduct(player.game, body(4), key)).body).toEqual(byPlayer.body);
    expect((await deduct(shop.server, body(4), key)).body).toEqual(byServer.body);
    expect(await balanceNow()).toBe(2);
    const entries = await ledgerOf(player.uid);
    expect(entries.map((e) => [e.caller, e.change]).sort()).toEqual(
      [
        [`merchant:${shop.owner.accountId}`, -4],
        [`user:${player.uid}`, -4],
      ].sort(),
    );

    // Another player's game token with the same key, for their own tickets: their own request too.
    const other = await playerWithTokens(deps, shop.gameCode);
    await giveTickets(deps, other.uid, shop.project.project_name, 1, 3);
    const byOther = await deduct(other.game, { ...body(1), userId: other.uid }, key);
    expect(byOther.status).toBe(201);
    expect(await balanceOf(deps, { uid: other.uid, projectName: shop.project.project_name, level: 1 })).toBe(2);
  });

  it('the same key with another body for the same player is 422 and writes nothing: another amount or level', async () => {
    const { shop, player, body, balanceNow } = await setup(10);
    const second = await playerWithTokens(deps, shop.gameCode);
    await giveTickets(deps, second.uid, shop.project.project_name, 1, 10);
    const key = `k-${randomUUID()}`;
    expect((await deduct(shop.server, body(4), key)).status).toBe(201);
    const before = await itemCount(deps);
    for (const changed of [body(5), { ...body(4), level: 2 }]) {
      const res = await deduct(shop.server, changed, key);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ statusCode: 422, message: expect.stringMatching(/^Idempotency-Key: .* another request/), error: 'idempotency.key_reused' });
    }
    // The player's own reuse of their key is judged alike.
    expect((await deduct(player.game, body(1), key)).status).toBe(201);
    const withPlayer = await itemCount(deps);
    expect((await deduct(player.game, body(2), key)).status).toBe(422);
    expect(await itemCount(deps)).toBe(withPlayer);
    expect(withPlayer).toBe(before + 1); // the player's deduction: its ledger entry, which is its key's record
    expect(await balanceNow()).toBe(5);
    expect(await balanceOf(deps, { uid: second.uid, projectName: shop.project.project_name, level: 1 })).toBe(10);
    // The server's key sent for another player is another scope (the record is in the player's ledger): it deducts once.
    const forSecond = { ...body(4), userId: second.uid };
    expect((await deduct(shop.server, forSecond, key)).status).toBe(201);
    expect((await deduct(shop.server, forSecond, key)).status).toBe(201);
    expect(await balanceOf(deps, { uid: second.uid, projectName: shop.project.project_name, level: 1 })).toBe(6);
    expect(await balanceNow()).toBe(5);
  });

  it('concurrent requests with one key deduct once: the others answer the first answer or 409 (still running)', async () => {
    const { shop, player, body, balanceNow } = await setup(100);
    const key = `c-${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 12 }, () => deduct(shop.server, body(7), key)));
    const ok = results.filter((r) => r.status === 201);
    expect(ok.length).toBeGreaterThan(0);
    for (const r of ok) expect(r.body.data).toBe(`minus#${key}`);
    for (const r of results.filter((r) => r.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body.message).toMatch(/^Idempotency-Key: .* still running/);
    }
    expect(await balanceNow()).toBe(93);
    expect(await ledgerOf(player.uid)).toHaveLength(1);
  });

  it('is one TransactWriteItems for a keyed deduction and one for its retry', async () => {
    const { shop, body, balanceNow } = await setup(10);
    const key = `n-${randomUUID()}`;
    await deduct(shop.server, body(1), `warm-${randomUUID()}`);
    const counter = commandCounter(deps);
    counter.start();
    expect((await deduct(shop.server, body(2), key)).status).toBe(201);
    const first = counter.stop();
    counter.start();
    expect((await deduct(shop.server, body(2), key)).status).toBe(201);
    const retry = counter.stop();
    expect(first.TransactWriteItems).toBe(1);
    expect(retry.TransactWriteItems).toBe(1);
    expect(await balanceNow()).toBe(7);
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

    // A deduction's ledger entry, held in the balance item, is not part of the answer.
    expect((await call(app, 'POST', `${base}/minus_tickets`, { token: shop.server, body: { ...query, userId: player.uid, amount: 1 } })).status).toBe(201);
    const remain = await call(app, 'GET', `${base}/remainBalance`, { token: player.platform });
    expect(remain.body.data.total).toBe(11);
    expect(remain.body.data.balances).toEqual(
      expect.arrayContaining([
        { ...query, balance: 6 },
        { ...query, level: 2, balance: 5 },
      ]),
    );
    expect(remain.body.data.balances).toHaveLength(2);
    const byServer = await call(app, 'GET', `${base}/remainBalance`, {
      token: shop.server,
      query: { userId: player.uid, projectName: shop.project.project_name },
    });
    expect(byServer.body.data.total).toBe(11);
    const none = await call(app, 'GET', `${base}/tickets`, { token: player.platform, query: { projectName: shop.project.project_name, level: 9 } });
    expect(none.body.data.balance).toBe(0);
  });
});
