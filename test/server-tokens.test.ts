import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { revocationKey } from '../core/access/keys.js';
import { MAX_REVOKED } from '../core/access/server-tokens.js';
import { balanceOf } from '../core/tickets/balances.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { giveTickets, playerWithTokens, projectWithLevel } from './support/payments.js';

/**
 * Named server tokens (core/access/server-tokens.ts) through the HTTP API: issued with a name, listed without the
 * token, revoked one by one, the revoked one refused at once by the value-moving calls while the merchant's other
 * tokens keep working; another merchant's id is 404; refusals write nothing.
 */
let deps: TestDeps;
let app: Hono;
const base = '/v2-testing';

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
});

async function shop() {
  const s = await projectWithLevel(deps);
  const player = await playerWithTokens(deps, s.gameCode);
  await giveTickets(deps, player.uid, s.project.project_name, 1, 10);
  const balance = () => balanceOf(deps, { uid: player.uid, projectName: s.project.project_name, level: 1 });
  const spend = (token: string) =>
    call(app, 'POST', `${base}/account/game/minus_tickets`, { token, body: { userId: player.uid, projectName: s.project.project_name, level: 1, amount: 1 } });
  const addWin = (token: string) =>
    call(app, 'POST', `${base}/merchant/games/addWin`, {
      token,
      body: { game_code: s.gameCode, game_player_id: player.uid, game_player_name: 'Ann', kills: 1, wins: 0, result_id: `r-${randomUUID()}` },
    });
  const issue = (name: string) => call(app, 'POST', `${base}/merchant/tokens`, { token: s.owner.token, body: { name } });
  const list = (cursor?: string) => call(app, 'GET', `${base}/merchant/tokens`, { token: s.owner.token, ...(cursor ? { query: { cursor } } : {}) });
  const revoke = (id: string, token = s.owner.token) => call(app, 'POST', `${base}/merchant/tokens/server/revoke`, { token, body: { id } });
  return { ...s, player, balance, spend, addWin, issue, list, revoke };
}

describe('named server tokens', () => {
  it('issues a named token that works, lists it without the token, and lists get_token’s under the empty name', async () => {
    const s = await shop();
    const issued = await s.issue('eu-production');
    expect(issued.status).toBe(200);
    expect(issued.body.data).toMatchObject({ name: 'eu-production', merchant_id: s.owner.merchant.id, id: expect.stringMatching(/^[0-9a-z]{9}[\w-]{16}$/) });
    expect((await deps.tokens.verify(issued.body.data.accessToken, ['server'])).jti).toBe(issued.body.data.id);
    expect((await s.spend(issued.body.data.accessToken)).status).toBe(201);

    const plain = await call(app, 'GET', `${base}/merchant/token`, { token: s.owner.token });
    expect(Object.keys(plain.body.data).sort()).toEqual(['accessToken', 'expiresAt', 'merchant_id']);

    const listed = await s.list();
    expect(listed.status).toBe(200);
    expect(listed.body.data.next).toBeNull();
    expect(listed.body.data.items).toEqual([
      { id: expect.any(String), name: '', issued_at: expect.any(String), expires_at: plain.body.data.expiresAt, revoked: false },
      {
        id: issued.body.data.id,
        name: 'eu-production',
        issued_at: issued.body.data.issued_at,
        expires_at: issued.body.data.expiresAt,
        revoked: false,
      },
    ]);
    expect(listed.text).not.toContain(issued.body.data.accessToken);
  });

  it('revokes one token alone: refused at once by minus_tickets and addWin, the other token keeps working', async () => {
    const s = await shop();
    const one = (await s.issue('one')).body.data;
    const two = (await s.issue('two')).body.data;
    expect((await s.addWin(one.accessToken)).status).toBe(200);

    const revoked = await s.revoke(one.id);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toEqual({ id: one.id, name: 'one', issued_at: one.issued_at, expires_at: one.expiresAt, revoked: true });

    const before = await itemCount(deps);
    const refusedSpend = await s.spend(one.accessToken);
    expect([refusedSpend.status, refusedSpend.body.error]).toEqual([401, 'auth.token_revoked']);
    const refusedWin = await s.addWin(one.accessToken);
    expect([refusedWin.status, refusedWin.body.error]).toEqual([401, 'auth.token_revoked']);
    expect(await itemCount(deps)).toBe(before);
    expect(await s.balance()).toBe(10);

    expect((await s.spend(two.accessToken)).status).toBe(201);
    expect((await s.addWin(two.accessToken)).status).toBe(200);
    expect(await s.balance()).toBe(9);

    // Revoking again answers the same and writes nothing.
    const stored = await deps.db.send(new GetCommand({ TableName: deps.table, Key: revocationKey(s.owner.accountId) }));
    const again = await s.revoke(one.id);
    expect([again.status, again.body.data]).toEqual([200, revoked.body.data]);
    expect((await deps.db.send(new GetCommand({ TableName: deps.table, Key: revocationKey(s.owner.accountId) }))).Item).toEqual(stored.Item);

    const listed = (await s.list()).body.data.items as { id: string; revoked: boolean }[];
    expect(listed.map((t) => [t.id, t.revoked])).toEqual([
      [two.id, false],
      [one.id, true],
    ]);
  });

  it("answers 404 for another merchant's token id and for an unknown one, 400 for a malformed id or name, writing nothing", async () => {
    const a = await shop();
    const b = await shop();
    const theirs = (await b.issue('theirs')).body.data;
    const before = await itemCount(deps);
    const other = await a.revoke(theirs.id);
    expect([other.status, other.body.error]).toEqual([404, 'access.not_found']);
    expect((await a.revoke(`${theirs.id.slice(0, 9)}AAAAAAAAAAAAAAAA`)).status).toBe(404);
    const malformed = await a.revoke('not-an-id');
    expect([malformed.status, malformed.body.message]).toEqual([400, expect.stringMatching(/^body\.id: /)]);
    for (const name of ['', '   ', 'x'.repeat(65), 'tab\there']) {
      const bad = await a.issue(name);
      expect([bad.status, bad.body.message]).toEqual([400, expect.stringMatching(/^body\.name: /)]);
    }
    expect(await itemCount(deps)).toBe(before);
    // The other merchant's token was not touched.
    expect((await b.spend(theirs.accessToken)).status).toBe(201);
  });

  it('takes an id only from the console: a server token cannot list or revoke, and another console sees only its own', async () => {
    const a = await shop();
    const mine = (await a.issue('mine')).body.data;
    expect((await call(app, 'GET', `${base}/merchant/tokens`, { token: mine.accessToken })).status).toBe(401);
    expect((await a.revoke(mine.id, mine.accessToken)).status).toBe(401);
    const b = await shop();
    expect((await b.list()).body.data.items).toEqual([]);
  });

  it('drops expired ids at each revocation and refuses past the cap with 409, writing nothing', async () => {
    const s = await shop();
    const now = Math.floor(Date.now() / 1000);
    const ids: Record<string, number> = { expiredlongago0000000000: now - 10 };
    for (let i = 0; i < MAX_REVOKED - 1; i++) ids[`live${String(i).padStart(21, '0')}`] = now + 3600;
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: { ...revocationKey(s.owner.accountId), type: 'revocation', serverRevoked: ids, serverRevokedVersion: 7 },
      }),
    );
    const one = (await s.issue('one')).body.data;
    const two = (await s.issue('two')).body.data;
    expect((await s.revoke(one.id)).status).toBe(200);
    const stored = (await deps.db.send(new GetCommand({ TableName: deps.table, Key: revocationKey(s.owner.accountId) }))).Item!;
    expect(Object.keys(stored.serverRevoked)).toHaveLength(MAX_REVOKED);
    expect(stored.serverRevoked).not.toHaveProperty('expiredlongago0000000000');
    expect(stored.serverRevokedVersion).toBe(8);

    const before = await itemCount(deps);
    const full = await s.revoke(two.id);
    expect([full.status, full.body.error]).toEqual([409, 'access.too_many_revoked']);
    expect((await deps.db.send(new GetCommand({ TableName: deps.table, Key: revocationKey(s.owner.accountId) }))).Item).toEqual(stored);
    expect(await itemCount(deps)).toBe(before);
    expect((await s.spend(two.accessToken)).status).toBe(201);
    expect((await s.spend(one.accessToken)).status).toBe(401);
  });

  it('pages the list 50 at a time, newest first, with a sealed cursor', async () => {
    const s = await shop();
    const names = Array.from({ length: 52 }, (_, i) => `t${i}`);
    for (const name of names) expect((await s.issue(name)).status).toBe(200);
    const first = (await s.list()).body.data;
    expect(first.items).toHaveLength(50);
    expect(first.items[0].name).toBe('t51');
    const second = (await s.list(first.next)).body.data;
    expect(second.items.map((t: { name: string }) => t.name)).toEqual(['t1', 't0']);
    const foreign = await call(app, 'GET', `${base}/merchant/tokens`, { token: (await shop()).owner.token, query: { cursor: first.next } });
    expect([foreign.status, foreign.body.error]).toEqual([400, 'input.invalid']);
  });

  it('marks tokens revoked by the all-at-once revocation in the list', async () => {
    const s = await shop();
    const one = (await s.issue('one')).body.data;
    expect((await call(app, 'POST', `${base}/merchant/tokens/revoke`, { token: s.owner.token, body: { tokens: 'server' } })).status).toBe(200);
    expect((await s.list()).body.data.items).toEqual([expect.objectContaining({ id: one.id, revoked: true })]);
    // Its revocation by id then answers revoked without writing.
    const before = await itemCount(deps);
    expect((await s.revoke(one.id)).body.data.revoked).toBe(true);
    expect(await itemCount(deps)).toBe(before);
  });
});
