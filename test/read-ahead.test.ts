import { beforeAll, describe, expect, it } from 'vitest';
import { readItems } from '../core/platform/batch.js';
import { withItemsReadAhead } from '../core/platform/read-ahead.js';
import { createPayApp } from '../functions/pay.js';
import { markDeleted } from './support/deleted-players.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { playerWithTokens, projectWithLevel } from './support/payments.js';
import { commandCounter } from './support/rankings.js';

/**
 * The items an operation's handler declares it reads first (core/http/operation.ts FirstReads, beside the handlers) are read in the authorization layer's own
 * fresh read, one request instead of two (core/http/policy.ts, core/platform/read-ahead.ts): the handler's read of
 * them is answered from it once, and the layer's refusals come before the handler as ever.
 */
let deps: TestDeps;
let pay: ReturnType<typeof createPayApp>;
const base = '/v2-testing';

beforeAll(async () => {
  deps = await createTestDeps();
  pay = createPayApp(deps);
});

async function buyer() {
  const shop = await projectWithLevel(deps);
  const player = await playerWithTokens(deps, shop.gameCode);
  const body = {
    userId: player.uid,
    project: shop.project.project_name,
    priceId: shop.level.priceId,
    prevId: -1,
    level: 1,
    amount: String(shop.level.amount_base),
  };
  const recharge = () => call(pay, 'POST', `${base}/account/user/rechargeOrder`, { token: player.platform, body });
  return { player, recharge };
}

describe("an operation's declared reads", () => {
  it("rechargeOrder reads once: the caller's deletion mark with the project, the level and the account", async () => {
    const { recharge } = await buyer();
    expect((await recharge()).status).toBe(200);
    const counter = commandCounter(deps);
    counter.start();
    const res = await recharge();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The read, the order id's counter, the order's Put.
    expect(counter.stop()).toEqual({ BatchGetItem: 1, UpdateItem: 1, PutItem: 1 });
  });

  it('a player whose deletion started is refused by the layer (401) with the same one read, and nothing is written', async () => {
    const { player, recharge } = await buyer();
    await markDeleted(deps, player.uid, player.address);
    const before = await itemCount(deps);
    const counter = commandCounter(deps);
    counter.start();
    const res = await recharge();
    expect(counter.stop()).toEqual({ BatchGetItem: 1 });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: 'auth.account_deleted' });
    expect(await itemCount(deps)).toBe(before);
  });

  it('answers the handler once: a second read of the same keys in the request goes to the table', async () => {
    const key = { pk: 'READ-AHEAD#1', sk: 'X' };
    const counter = commandCounter(deps);
    counter.start();
    const [first, second] = await withItemsReadAhead([key], [{ ...key, value: 'read ahead' }], async () => [
      await readItems(deps, [key]),
      await readItems(deps, [key]),
    ]);
    expect(first).toEqual([{ ...key, value: 'read ahead' }]);
    // The table has no such item: the second read asked it.
    expect(second).toEqual([undefined]);
    expect(counter.stop()).toEqual({ BatchGetItem: 1 });
    // Keys not all read ahead go to the table, whole.
    counter.start();
    await withItemsReadAhead([key], [undefined], () => readItems(deps, [key, { pk: 'READ-AHEAD#2', sk: 'X' }]));
    expect(counter.stop()).toEqual({ BatchGetItem: 1 });
  });
});
