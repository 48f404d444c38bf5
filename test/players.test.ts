import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { setMerchantStatus } from '../core/merchants/merchants.js';
import { MerchantStatus } from '../core/merchants/models.js';
import { queryItems } from '../core/platform/query.js';
import { addWin } from '../core/rankings/reports.js';
import { monthOf, weekOf } from '../core/rankings/seasons.js';
import { balanceOf } from '../core/tickets/balances.js';
import { createInnerApp } from '../functions/inner.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { markDeleted } from './support/deleted-players.js';
import { call } from './support/http.js';
import { ledgerMismatches } from './support/ledgers.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { giveTickets, playerWithTokens, projectWithLevel } from './support/payments.js';

/**
 * player_view and player_tickets_grant (docs/api.md "Studios: a player's tickets"): a studio looks a player up and
 * sees only what concerns its own projects and games; it grants and takes back tickets with a reason, exactly once
 * per Idempotency-Key, in one transaction, the ledger summing to the balance.
 */
let deps: TestDeps;
let inner: ReturnType<typeof createInnerApp>;
const base = '/v2-testing';
const document = servedDocument(base);
const VIEW = '/merchant/players/view';
const GRANT = '/merchant/players/tickets';

beforeAll(async () => {
  deps = await createTestDeps();
  inner = createInnerApp(deps);
});

async function view(token: string, query: Record<string, string | number>) {
  const res = await call(inner, 'GET', `${base}${VIEW}`, { token, query });
  expect(documentErrors(document, VIEW, 'get', res.status, res.body)).toEqual([]);
  return res;
}

async function grant(token: string, body: Record<string, unknown>, key?: string) {
  const res = await call(inner, 'POST', `${base}${GRANT}`, { token, body, ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }) });
  expect(documentErrors(document, GRANT, 'post', res.status, res.body)).toEqual([]);
  return res;
}

async function setup() {
  const shop = await projectWithLevel(deps);
  const player = await playerWithTokens(deps, shop.gameCode);
  const project = shop.project.project_name;
  const body = (amount: number, reason = 'support ticket 12') => ({ userId: player.uid, projectName: project, level: 1, amount, reason });
  const balanceNow = () => balanceOf(deps, { uid: player.uid, projectName: project, level: 1 });
  return { shop, player, project, body, balanceNow, token: shop.owner.token };
}

async function playerItems(uid: string) {
  return queryItems(deps, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `USER#${uid}` }, ConsistentRead: true });
}

describe('player_view', () => {
  it("shows the player's balances, ledger and scores of the studio's projects and games, by id and by address, never another studio's", async () => {
    const { shop, player, project, token } = await setup();
    const other = await projectWithLevel(deps);
    await giveTickets(deps, player.uid, project, 1, 7);
    await giveTickets(deps, player.uid, other.project.project_name, 1, 99);
    await addWin(deps, { game_code: shop.gameCode, game_player_id: player.uid, game_player_name: 'Ann', kills: 3, wins: 1 });
    await addWin(deps, { game_code: other.gameCode, game_player_id: player.uid, game_player_name: 'Ann', kills: 50, wins: 50 });

    const byId = await view(token, { user_id: player.uid });
    expect(byId.status, JSON.stringify(byId.body)).toBe(200);
    const data = byId.body.data;
    expect(data.user_id).toBe(player.uid);
    expect(data.address).toBe(player.address);
    expect(data.balances).toEqual([{ project_name: project, level: 1, balance: 7 }]);
    expect(data.ledger.items).toEqual([
      expect.objectContaining({ project_name: project, level: 1, change: 7, operation: 'test', reason: null, balance_after: null }),
    ]);
    expect(data.orders).toEqual({ items: [], next: null });
    const now = new Date();
    expect(data.scores).toEqual([
      { game_code: shop.gameCode, season_type: 1, season_range: weekOf(now).range, kills: 3, wins: 1 },
      { game_code: shop.gameCode, season_type: 2, season_range: monthOf(now).range, kills: 3, wins: 1 },
    ]);
    const byAddress = await view(token, { address: player.address });
    expect(byAddress.body.data).toEqual(data);
    // The other studio sees only its own.
    const theirs = await view(other.owner.token, { user_id: player.uid });
    expect(theirs.body.data.balances).toEqual([{ project_name: other.project.project_name, level: 1, balance: 99 }]);
    expect(theirs.body.data.scores.map((s: { game_code: string }) => s.game_code)).toEqual([other.gameCode, other.gameCode]);
  });

  it('pages the ledger with a sealed cursor, bounded by limit', async () => {
    const { player, project, token } = await setup();
    for (let i = 0; i < 5; i++) await giveTickets(deps, player.uid, project, 1, 1);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await view(token, { user_id: player.uid, limit: 2, ...(cursor ? { ledger_cursor: cursor } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.data.ledger.items.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.ledger.items.map((line: { ref: string }) => line.ref));
      cursor = res.body.data.ledger.next;
    } while (cursor);
    expect(new Set(seen).size).toBe(5);
    const stranger = await projectWithLevel(deps);
    const first = await view(token, { user_id: player.uid, limit: 2 });
    const foreign = await view(stranger.owner.token, { user_id: player.uid, limit: 2, ledger_cursor: first.body.data.ledger.next });
    expect(foreign.status).toBe(400);
  });

  it('answers 404 for an unknown player and for a deleted one, 400 for neither or both of id and address', async () => {
    const { player, token } = await setup();
    const unknown = await view(token, { user_id: randomUUID() });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('tickets.player_unknown');
    expect((await view(token, { address: `0x${'ab'.repeat(32)}` })).body.error).toBe('tickets.player_unknown');
    expect((await view(token, {})).status).toBe(400);
    expect((await view(token, { user_id: player.uid, address: player.address })).status).toBe(400);
    await markDeleted(deps, player.uid, player.address);
    const gone = await view(token, { user_id: player.uid });
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('player.deleted');
    expect((await view(token, { address: player.address })).body.error).toBe('tickets.player_unknown');
  });
});

describe('player_tickets_grant', () => {
  it('grants and takes back with a reason, once per key, the ledger entry naming the reason and the granting account', async () => {
    const { shop, player, body, balanceNow, token } = await setup();
    const first = await grant(token, body(10), 'g-1');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toEqual({
      ref: 'grant#g-1',
      userId: player.uid,
      projectName: body(1).projectName,
      level: 1,
      amount: 10,
      reason: 'support ticket 12',
      granted_by: shop.owner.accountId,
      created_at: expect.any(String),
    });
    const again = await grant(token, body(10), 'g-1');
    expect(again.text).toBe(first.text);
    expect(await balanceNow()).toBe(10);
    const reused = await grant(token, body(10, 'another reason'), 'g-1');
    expect(reused.status).toBe(422);
    expect(reused.body.error).toBe('idempotency.key_reused');
    const back = await grant(token, body(-4, 'refund of a duplicate grant'), 'g-2');
    expect(back.status).toBe(200);
    expect(await balanceNow()).toBe(6);
    const ledger = (await view(token, { user_id: player.uid })).body.data.ledger.items;
    expect(ledger).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ change: 10, operation: 'grant', reason: 'support ticket 12', granted_by: shop.owner.accountId }),
        expect.objectContaining({ change: -4, operation: 'grant', reason: 'refund of a duplicate grant', granted_by: shop.owner.accountId }),
      ]),
    );
    expect(ledgerMismatches(await playerItems(player.uid))).toEqual([]);
  });

  it('refuses what it must, writing nothing: a short balance, no key, zero, no reason, another studio, an unknown level or player, a deleted player, a suspended merchant', async () => {
    const { shop, player, body, balanceNow, token } = await setup();
    await grant(token, body(3), 'k-0');
    const stranger = await projectWithLevel(deps);
    const before = await itemCount(deps);
    const short = await grant(token, body(-4), 'k-1');
    expect(short.status).toBe(409);
    expect(short.body.error).toBe('tickets.balance_short');
    const noKey = await grant(token, body(1));
    expect(noKey.status).toBe(400);
    expect(noKey.body.error).toBe('idempotency.key_invalid');
    expect((await grant(token, body(0), 'k-2')).status).toBe(400);
    expect((await grant(token, body(1, ''), 'k-3')).status).toBe(400);
    expect((await grant(token, body(1_000_001), 'k-4')).status).toBe(400);
    expect((await grant(token, { ...body(1), reason: 'x'.repeat(201) }, 'k-5')).status).toBe(400);
    expect((await grant(stranger.owner.token, body(1), 'k-6')).status).toBe(403);
    const level = await grant(token, { ...body(1), level: 9 }, 'k-7');
    expect(level.status).toBe(404);
    expect(level.body.error).toBe('tickets.level_unknown');
    const nobody = await grant(token, { ...body(1), userId: randomUUID() }, 'k-8');
    expect(nobody.body.error).toBe('tickets.player_unknown');
    expect(await itemCount(deps)).toBe(before);
    expect(await balanceNow()).toBe(3);

    await setMerchantStatus(deps, shop.owner.merchant.id, MerchantStatus.suspended);
    const suspended = await grant(token, body(1), 'k-9');
    expect(suspended.status).toBe(403);
    expect(suspended.body.error).toBe('merchant.suspended');
    await setMerchantStatus(deps, shop.owner.merchant.id, MerchantStatus.active);

    await markDeleted(deps, player.uid, player.address);
    const afterDeletion = await itemCount(deps);
    const gone = await grant(token, body(1), 'k-10');
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('player.deleted');
    expect(await itemCount(deps)).toBe(afterDeletion);
  });

  it('many concurrent grants and take-backs with distinct keys, each sent several times: nothing lost, nothing applied twice', async () => {
    const { player, body, balanceNow, token } = await setup();
    await grant(token, body(100), 'seed');
    const amounts = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? -2 : 5));
    /** One client's grant: sent 3 times at once with its key, each retrying a 409 that says retry. */
    const send = async (key: string, amount: number) => {
      for (let tries = 0; tries < 20; tries++) {
        const res = await grant(token, body(amount), key);
        if (res.status === 200) return res.text;
        expect(res.status, JSON.stringify(res.body)).toBe(409);
        expect(['data.changed_concurrently', 'idempotency.still_running']).toContain(res.body.error);
      }
      throw new Error(`grant ${key} kept colliding`);
    };
    const answers = await Promise.all(amounts.flatMap((amount, i) => [0, 1, 2].map(() => send(`c-${i}`, amount).then((text) => ({ i, text })))));
    for (let i = 0; i < amounts.length; i++) expect(new Set(answers.filter((a) => a.i === i).map((a) => a.text)).size).toBe(1);
    const expected = 100 + amounts.reduce((sum, n) => sum + n, 0);
    expect(await balanceNow()).toBe(expected);
    const items = await playerItems(player.uid);
    expect(items.filter((item) => String(item.sk).startsWith('LEDGER#grant#')).length).toBe(amounts.length + 1);
    expect(ledgerMismatches(items)).toEqual([]);
  }, 180_000);
});
