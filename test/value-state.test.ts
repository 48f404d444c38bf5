import type { Hono } from 'hono';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { revocationKey } from '../core/access/keys.js';
import { merchantKey } from '../core/merchants/keys.js';
import { goneKey } from '../core/platform/players.js';
import { balanceOf } from '../core/tickets/balances.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { accountWithToken } from './support/merchants.js';
import { giveTickets, playerWithTokens, projectWithLevel } from './support/payments.js';
import { commandCounter } from './support/rankings.js';

/**
 * A value-moving call may use the account state (suspension, revocations) its process read in the last second
 * (core/access/principals.ts valueMovingState); a suspension or revocation answers only once every such read made
 * before it has aged out (core/platform/process-memory.ts outlastRememberedStates). "Another process" is this
 * process's modules loaded a second time (vi.resetModules): its own memory, the same table. Without the wait, it
 * would still move value on the state it read a moment before the suspension or revocation answered.
 */
let deps: TestDeps;
let app: Hono;
let other: Hono;
let admin: Awaited<ReturnType<typeof accountWithToken>>;
const base = '/v2-testing';

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
  admin = await accountWithToken(deps, 'admin');
  vi.resetModules();
  const second = (await import('../functions/apps.js')) as typeof import('../functions/apps.js');
  expect(second.createAllApps).not.toBe(createAllApps);
  other = second.createAllApps(deps);
});

/** The keys of every BatchGetItem sent from now on, a list per request. */
function keysRead(): unknown[][] {
  const reads: unknown[][] = [];
  deps.db.middlewareStack.add(
    (next, context) => async (args) => {
      // The document client's keys, before they are marshalled.
      const input = args.input as { RequestItems?: Record<string, { Keys: unknown[] }> };
      if (context.commandName === 'BatchGetItemCommand') reads.push(input.RequestItems?.[deps.table]?.Keys ?? []);
      return next(args);
    },
    { step: 'initialize', name: `keysRead${Math.random()}` },
  );
  return reads;
}

async function shop() {
  const s = await projectWithLevel(deps);
  const player = await playerWithTokens(deps, s.gameCode);
  await giveTickets(deps, player.uid, s.project.project_name, 1, 10);
  const balance = () => balanceOf(deps, { uid: player.uid, projectName: s.project.project_name, level: 1 });
  const spend = (through: Hono, token = s.server) =>
    call(through, 'POST', `${base}/account/game/minus_tickets`, {
      token,
      body: { userId: player.uid, projectName: s.project.project_name, level: 1, amount: 1 },
    });
  const setStatus = (status: number) =>
    call(app, 'POST', `${base}/merchant/status`, { token: admin.token, body: { merchant_id: s.owner.merchant.id, status } });
  return { ...s, player, balance, spend, setStatus };
}

describe("a value-moving call's account state", () => {
  it("is read once a second per process: a deduction right after another reads only the player's gone mark", async () => {
    const s = await shop();
    const reads = keysRead();
    // The second is "right after" on the process's clock, however busy the machine: Date is held still between them.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      expect((await s.spend(app)).status).toBe(201);
      expect(reads.splice(0)).toEqual([[merchantKey(s.owner.accountId), revocationKey(s.owner.accountId), goneKey(s.player.uid)]]);
      const counter = commandCounter(deps);
      counter.start();
      expect((await s.spend(app)).status).toBe(201);
      expect(counter.stop()).toEqual({ BatchGetItem: 1, UpdateItem: 1 });
    } finally {
      vi.useRealTimers();
    }
    expect(reads).toEqual([[goneKey(s.player.uid)]]);
    expect(await s.balance()).toBe(8);
  });

  it('a suspension answers only once another process no longer moves value on the state it read before', async () => {
    const s = await shop();
    expect((await s.spend(other)).status).toBe(201);
    expect((await s.setStatus(2)).status).toBe(200);
    const refused = await s.spend(other);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('merchant is suspended');
    expect(await s.balance()).toBe(9);
  });

  it('a remembered suspension is read again before it refuses: a reactivated merchant spends at once', async () => {
    const s = await shop();
    expect((await s.setStatus(2)).status).toBe(200);
    expect((await s.spend(other)).status).toBe(403);
    expect((await s.setStatus(1)).status).toBe(200);
    expect((await s.spend(other)).status).toBe(201);
    expect(await s.balance()).toBe(9);
  });

  it('a revocation, by id or of every server token, answers only once another process refuses the token', async () => {
    const s = await shop();
    const issued = await call(app, 'POST', `${base}/merchant/tokens`, { token: s.owner.token, body: { name: 'eu' } });
    const named = issued.body.data as { id: string; accessToken: string };
    expect((await s.spend(other, named.accessToken)).status).toBe(201);
    expect((await call(app, 'POST', `${base}/merchant/tokens/server/revoke`, { token: s.owner.token, body: { id: named.id } })).status).toBe(200);
    expect((await s.spend(other, named.accessToken)).status).toBe(401);

    expect((await s.spend(other)).status).toBe(201);
    expect((await call(app, 'POST', `${base}/merchant/tokens/revoke`, { token: s.owner.token, body: { tokens: 'server' } })).status).toBe(200);
    expect((await s.spend(other)).status).toBe(401);
    expect(await s.balance()).toBe(8);
  });
});
