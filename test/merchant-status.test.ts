import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createInnerApp } from '../functions/inner.js';
import { setMerchantStatus, STATUS_CHUNK } from '../core/merchants/merchants.js';
import { MerchantStatus } from '../core/merchants/models.js';
import { createGame } from '../core/games/games.js';
import { GameCreate } from '../core/games/models.js';
import type { Deps } from '../core/platform/deps.js';
import { call } from './support/http.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { accountWithToken, merchantWithToken } from './support/merchants.js';
import { gamePayload, newCode } from './support/games.js';

/**
 * merchantStatus POST for a merchant with more games than one transaction holds (docs/data-model.md, "change a
 * merchant's status"): the merchant and its first 99 games change in one transaction, the rest 99 at a time
 * while the merchant still has the new status.
 */

let deps: TestDeps;
let app: ReturnType<typeof createInnerApp>;
let admin: Awaited<ReturnType<typeof accountWithToken>>;
const base = '/v2-testing';
const GAMES = 120;
/** Each test makes 120 games and reads each of them a few times; the machine is shared. */
const SLOW = 180_000;

beforeAll(async () => {
  deps = await createTestDeps();
  app = createInnerApp(deps);
  admin = await accountWithToken(deps, 'admin');
});

/**
 * An active merchant with `count` games, and their records: saved through savemerchantgame (`http`), or through
 * the same domain function where the test is about what comes after.
 */
async function merchantWithGames(count: number, via: 'http' | 'core' = 'core') {
  const owner = await merchantWithToken(deps);
  const games: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const payload = gamePayload(newCode('many'));
    if (via === 'core') {
      games.push(await createGame(deps, owner.claims, GameCreate.parse(payload)));
      continue;
    }
    const saved = await call(app, 'POST', `${base}/merchant/games/save`, { token: owner.token, body: payload });
    expect(saved.status).toBe(200);
    games.push(saved.body.data);
  }
  return { ...owner, games, codes: games.map((game) => game.code as string) };
}

const setStatus = (merchantId: number, status: number) =>
  call(app, 'POST', `${base}/merchant/status`, { token: admin.token, body: { merchant_id: merchantId, status } });

/** The codes among `codes` that query_new_merchant lists, and those game_detail answers 200 for. */
async function publicOf(codes: string[]) {
  const page = await call(app, 'GET', `${base}/merchant/merchant/page`);
  expect(page.status).toBe(200);
  const listed = codes.filter((code) => page.body.data[code] !== undefined);
  const details = await Promise.all(codes.map((code) => call(app, 'GET', `${base}/merchant/games/detail`, { query: { code } })));
  expect(details.every((detail) => detail.status === 200 || detail.status === 404)).toBe(true);
  const detailed = codes.filter((_, i) => details[i]!.status === 200);
  return { listed, detailed, page: page.body.data as Record<string, unknown> };
}

/** Deps whose client hands the n-th TransactWriteItems (1-based) to `intercept` instead of sending it at once. */
function interceptTransaction(n: number, intercept: (send: () => Promise<unknown>) => Promise<unknown>): Deps {
  let seen = 0;
  const db = {
    send: (command: unknown, ...rest: unknown[]) => {
      const send = () => (deps.db.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
      if (command instanceof TransactWriteCommand && ++seen === n) return intercept(send);
      return send();
    },
  };
  return { ...deps, db: db as unknown as Deps['db'] };
}

describe('merchantStatus POST for a merchant with more than 99 games', () => {
  it('suspends a merchant with 120 games (none public) and reactivates it (all public), repeatably', async () => {
    const owner = await merchantWithGames(GAMES, 'http');
    const before = await publicOf(owner.codes);
    expect(before.listed).toHaveLength(GAMES);

    const suspended = await setStatus(owner.merchant.id, MerchantStatus.suspended);
    expect(suspended.status).toBe(200);
    expect(suspended.body).toEqual({ code: 200, message: 'success', data: { merchant_id: owner.merchant.id, status: 2 } });
    const hidden = await publicOf(owner.codes);
    expect(hidden.listed).toEqual([]);
    expect(hidden.detailed).toEqual([]);

    const active = await setStatus(owner.merchant.id, MerchantStatus.active);
    expect(active.status).toBe(200);
    expect(active.body.data).toEqual({ merchant_id: owner.merchant.id, status: 1 });
    const shown = await publicOf(owner.codes);
    expect(shown.listed).toHaveLength(GAMES);
    expect(shown.detailed).toHaveLength(GAMES);
    for (const game of owner.games) expect(shown.page[game.code as string]).toEqual(game);

    // The same status again is answered the same and changes nothing.
    const again = await setStatus(owner.merchant.id, MerchantStatus.active);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ merchant_id: owner.merchant.id, status: 1 });
    expect((await publicOf(owner.codes)).detailed).toHaveLength(GAMES);
    const status = await call(app, 'GET', `${base}/merchant/status`, { token: admin.token, query: { merchant_id: owner.merchant.id } });
    expect(status.body.data.status).toBe(1);
  }, SLOW);

  it('completes a change interrupted after its first transaction when the same request is repeated', async () => {
    const owner = await merchantWithGames(GAMES);
    // The request dies (a timeout, a lost connection) when it sends its second transaction.
    const dying = interceptTransaction(2, async () => {
      throw new Error('function timed out');
    });
    await expect(setMerchantStatus(dying, owner.merchant.id, MerchantStatus.suspended)).rejects.toThrow('function timed out');

    const status = await call(app, 'GET', `${base}/merchant/status`, { token: admin.token, query: { merchant_id: owner.merchant.id } });
    expect(status.body.data.status).toBe(2);
    const half = await publicOf(owner.codes);
    expect(half.detailed).toHaveLength(GAMES - STATUS_CHUNK);
    expect(half.listed.sort()).toEqual(half.detailed.sort());

    const repeated = await setStatus(owner.merchant.id, MerchantStatus.suspended);
    expect(repeated.status).toBe(200);
    expect(repeated.body.data).toEqual({ merchant_id: owner.merchant.id, status: 2 });
    const done = await publicOf(owner.codes);
    expect(done.listed).toEqual([]);
    expect(done.detailed).toEqual([]);
  }, SLOW);

  it('stops a change overtaken by a later one, leaving the games to the later change', async () => {
    const owner = await merchantWithGames(GAMES);
    // The suspension has set the status and moved its first games; it is held before moving the others.
    let reached!: () => void;
    const atSecond = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = interceptTransaction(2, async (send) => {
      reached();
      await released;
      return send();
    });
    const suspension = setMerchantStatus(slow, owner.merchant.id, MerchantStatus.suspended);
    await atSecond;
    expect((await publicOf(owner.codes)).detailed).toHaveLength(GAMES - STATUS_CHUNK);

    // An admin reactivates the merchant meanwhile; then the suspension goes on.
    const reactivated = await setStatus(owner.merchant.id, MerchantStatus.active);
    expect(reactivated.status).toBe(200);
    release();
    await expect(suspension).resolves.toEqual({ merchant_id: owner.merchant.id, status: MerchantStatus.suspended });

    const status = await call(app, 'GET', `${base}/merchant/status`, { token: admin.token, query: { merchant_id: owner.merchant.id } });
    expect(status.body.data.status).toBe(1);
    const shown = await publicOf(owner.codes);
    expect(shown.listed).toHaveLength(GAMES);
    expect(shown.detailed).toHaveLength(GAMES);
  }, SLOW);

  it('ends consistent when status changes and game creations race on a merchant with 120 games', async () => {
    const owner = await merchantWithGames(GAMES);
    const extra = Array.from({ length: 6 }, () => newCode('race'));
    const results = await Promise.all([
      setStatus(owner.merchant.id, MerchantStatus.suspended),
      ...extra.slice(0, 3).map((code) => call(app, 'POST', `${base}/merchant/games/save`, { token: owner.token, body: gamePayload(code) })),
      setStatus(owner.merchant.id, MerchantStatus.active),
      ...extra.slice(3).map((code) => call(app, 'POST', `${base}/merchant/games/save`, { token: owner.token, body: gamePayload(code) })),
      setStatus(owner.merchant.id, MerchantStatus.pending),
    ]);
    // A save answers 403 once the merchant is suspended; a change or save that kept colliding answers 409.
    expect(results.filter((r) => ![200, 403, 409].includes(r.status)).map((r) => [r.status, r.body])).toEqual([]);

    const final = await call(app, 'GET', `${base}/merchant/status`, { token: admin.token, query: { merchant_id: owner.merchant.id } });
    const saved = extra.filter((_, i) => results[i < 3 ? i + 1 : i + 2]!.status === 200);
    const codes = [...owner.codes, ...saved];
    const visible = await publicOf(codes);
    const expected = final.body.data.status === MerchantStatus.active ? codes.length : 0;
    expect(visible.detailed).toHaveLength(expected);
    expect(visible.listed).toHaveLength(expected);
  }, SLOW);
});
