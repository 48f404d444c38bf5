import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveLevel } from '../core/payments/projects.js';
import type { AppleSettings } from '../core/app-stores/apple-settings.js';
import { balanceOf } from '../core/tickets/balances.js';
import { createAllApps } from '../functions/apps.js';
import { forge, makeAppleChain, signJws, transactionPayload } from './support/app-store-signing.js';
import { loopbackClients, makeApiKey, startAppStoreApi, type AppStoreApi } from './support/app-store-api.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { playerWithTokens, projectWithLevel } from './support/payments.js';

/**
 * app-verify-transaction through HTTP: a signed App Store transaction completes the caller's
 * order it was bought for, once; everything else is a 4xx that writes nothing.
 */

const base = '/v2-testing';
const document = servedDocument(base);
const BUNDLE = 'com.studio.game';
const PRODUCT = 'com.studio.tickets.100';
const chain = makeAppleChain();
const sandboxStage: AppleSettings = { bundleId: BUNDLE, environment: 'Sandbox', allowSandbox: false, rootCertificates: [chain.root], onlineChecks: false };

let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
beforeAll(async () => {
  deps = await createTestDeps();
  deps.appStore = sandboxStage;
  app = createAllApps(deps);
});

async function shop(product: string | null = PRODUCT) {
  const setup = await projectWithLevel(deps);
  if (product) {
    await saveLevel(deps, setup.owner.claims, {
      project_name: setup.project.project_name,
      level: 1,
      amount: '1500000000',
      tickets: 100,
      status: 1,
      apple_product_id: product,
    });
  }
  const player = await playerWithTokens(deps);
  const newOrder = async (who = player) => {
    const res = await call(app, 'POST', `${base}/account/user/rechargeOrder`, {
      token: who.platform,
      body: { userId: who.uid, project: setup.project.project_name, priceId: setup.level.priceId, prevId: -1, level: 1, amount: '1500000000' },
    });
    expect(res.status).toBe(200);
    return res.body as { id: number; app_account_token: string };
  };
  /** What StoreKit gives the app after buying `order`'s product with its link. */
  const bought = (order: { app_account_token: string }, fields: Partial<Parameters<typeof transactionPayload>[0]> = {}, by = chain) =>
    signJws(by, transactionPayload({ bundleId: BUNDLE, productId: PRODUCT, appAccountToken: order.app_account_token, ...fields }));
  const verify = (orderId: number, signedTransaction: string, who = player) =>
    call(app, 'POST', `${base}/pay/apple/verify`, { token: who.platform, body: { orderId, signedTransaction } });
  const tickets = (who = player) => balanceOf(deps, { uid: who.uid, projectName: setup.project.project_name, level: 1 });
  return { ...setup, player, newOrder, bought, verify, tickets };
}

describe('app-verify-transaction', () => {
  it('completes the order the purchase was made for (tx_type 2), once; the documented shape', async () => {
    const { newOrder, bought, verify, tickets } = await shop();
    const order = await newOrder();
    const jws = await bought(order);
    const res = await verify(order.id, jws);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: order.id, status: 1, tx_type: 2, app_account_token: order.app_account_token });
    expect(documentErrors(document, '/pay/apple/verify', 'post', 200, res.body)).toEqual([]);
    expect(await tickets()).toBe(100);

    const before = await itemCount(deps);
    const again = await verify(order.id, jws);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: order.id, status: 1 });
    expect(await itemCount(deps)).toBe(before);
    expect(await tickets()).toBe(100);
  });

  it('20 simultaneous verifications of one purchase credit once', async () => {
    const { newOrder, bought, verify, tickets } = await shop();
    const order = await newOrder();
    const jws = await bought(order);
    const answers = await Promise.all(Array.from({ length: 20 }, () => verify(order.id, jws)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(await tickets()).toBe(100);
  });

  it("refuses a purchase that is not the order's with 409, writing nothing", async () => {
    const { newOrder, bought, verify, tickets, player } = await shop();
    const [order, other] = [await newOrder(), await newOrder()];
    const cases: [string, Promise<string>, number, RegExp][] = [
      [
        'made for another order (a replay on a second order)',
        bought(other),
        order.id,
        new RegExp(`^signedTransaction: the purchase was made for another order than ${order.id}$`),
      ],
      [
        'another product',
        bought(order, { productId: 'com.studio.tickets.500' }),
        order.id,
        new RegExp(`^signedTransaction: it bought com.studio.tickets.500; order ${order.id} is for ${PRODUCT}$`),
      ],
      [
        'no link',
        signJws(chain, transactionPayload({ bundleId: BUNDLE, productId: PRODUCT })),
        order.id,
        /^signedTransaction: the purchase names no order \(no appAccountToken\)/,
      ],
      ['two at once', bought(order, { quantity: 2 }), order.id, /^signedTransaction: it bought 2 at once/],
    ];
    const before = await itemCount(deps);
    for (const [why, jws, orderId, message] of cases) {
      const res = await verify(orderId, await jws);
      expect(res.status, why).toBe(409);
      expect(res.body.message, why).toMatch(message);
    }
    expect(await itemCount(deps)).toBe(before);
    expect(await tickets(player)).toBe(0);

    // Paid by one purchase, the order takes no other; the purchase pays no other order.
    const first = await bought(order);
    expect((await verify(order.id, first)).status).toBe(200);
    const second = await verify(order.id, await bought(order));
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(`orderId: order ${order.id} is paid already, by another purchase`);
    expect(await tickets()).toBe(100);
  });

  it("refuses unverified data with 400 naming the field, and another player's order with 404, writing nothing", async () => {
    const { newOrder, bought, verify, tickets } = await shop();
    const order = await newOrder();
    const stranger = await playerWithTokens(deps);
    const before = await itemCount(deps);
    const forged = await verify(order.id, forge(await bought(order)));
    expect(forged.status).toBe(400);
    expect(forged.body.message).toBe("signedTransaction: not verified: its signature or certificate chain is not Apple's");
    expect((await verify(order.id, await bought(order, {}, makeAppleChain('Other Root')))).status).toBe(400);
    const otherApp = await verify(order.id, await bought(order, { bundleId: 'com.other.game' }));
    expect(otherApp.body.message).toBe('signedTransaction: not verified: it is for another app (bundle id or app Apple id)');
    const malformed = await verify(order.id, 'not a jws');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/^body\.signedTransaction: /);
    expect((await verify(order.id, await bought(order), stranger)).status).toBe(404);
    expect(await itemCount(deps)).toBe(before);
    expect(await tickets()).toBe(0);
  });

  it('an order whose level had no App Store product is 409', async () => {
    const { newOrder, bought, verify } = await shop(null);
    const order = await newOrder();
    const res = await verify(order.id, await bought(order));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(`orderId: order ${order.id} has no App Store product (its level had none when it was ordered)`);
  });
});

describe('stages', () => {
  it('a Production stage refuses Sandbox purchases unless allowSandbox', async () => {
    const { newOrder, bought, verify } = await shop();
    const order = await newOrder();
    deps.appStore = { ...sandboxStage, environment: 'Production', appAppleId: 1234567890 };
    try {
      const refused = await verify(order.id, await bought(order));
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('signedTransaction: Sandbox data is not taken on this stage (it takes Production)');
      deps.appStore = { ...deps.appStore, allowSandbox: true };
      expect((await verify(order.id, await bought(order))).status).toBe(200);
    } finally {
      deps.appStore = sandboxStage;
    }
  });

  it('a stage without AppleConfig answers 503 naming it; the rest of the group still routes', async () => {
    const bare = await createTestDeps();
    const bareApp = createAllApps(bare);
    const setup = await projectWithLevel(bare);
    const player = await playerWithTokens(bare);
    const order = await call(bareApp, 'POST', `${base}/account/user/rechargeOrder`, {
      token: player.platform,
      body: { userId: player.uid, project: setup.project.project_name, priceId: setup.level.priceId, prevId: -1, level: 1, amount: '1500000000' },
    });
    const res = await call(bareApp, 'POST', `${base}/pay/apple/verify`, {
      token: player.platform,
      body: { orderId: order.body.id, signedTransaction: await signJws(chain, transactionPayload({ bundleId: BUNDLE, productId: PRODUCT })) },
    });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      statusCode: 503,
      message: 'App Store purchases are not configured on this stage (the AppleConfig setting)',
      error: 'appstore.unconfigured',
    });
    expect(documentErrors(document, '/pay/apple/verify', 'post', 503, res.body)).toEqual([]);
  });
});

describe('app-verify-transaction with a transaction id (read from the App Store Server API)', () => {
  const key = makeApiKey();
  const servers: { Production?: AppStoreApi; Sandbox?: AppStoreApi } = {};
  afterAll(async () => {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  });
  const withApi = async () => {
    servers.Production ??= await startAppStoreApi(key, BUNDLE);
    servers.Sandbox ??= await startAppStoreApi(key, BUNDLE);
    deps.appStoreApi = loopbackClients(servers, key, BUNDLE);
  };
  const byId = (s: Awaited<ReturnType<typeof shop>>, orderId: number, transactionId: string) =>
    call(app, 'POST', `${base}/pay/apple/verify`, { token: s.player.platform, body: { orderId, transactionId } });

  it('completes the order from the transaction the App Store answers for the id', async () => {
    await withApi();
    const s = await shop();
    const order = await s.newOrder();
    const transactionId = '2000000777000001';
    servers.Sandbox!.transactions.set(transactionId, await s.bought(order, { transactionId }));
    const res = await byId(s, order.id, transactionId);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: order.id, status: 1, tx_type: 2 });
    expect(servers.Sandbox!.calls.at(-1)).toEqual({ method: 'GET', path: `/inApps/v1/transactions/${transactionId}` });
    expect(await s.tickets()).toBe(100);
  });

  it('asks Production first, then Sandbox when the stage takes it; an id neither knows is 404', async () => {
    await withApi();
    deps.appStore = { ...sandboxStage, environment: 'Production', appAppleId: 1234567890, allowSandbox: true };
    try {
      const s = await shop();
      const order = await s.newOrder();
      const transactionId = '2000000777000002';
      servers.Sandbox!.transactions.set(transactionId, await s.bought(order, { transactionId }));
      const productionCalls = servers.Production!.calls.length;
      expect((await byId(s, order.id, transactionId)).status).toBe(200);
      expect(servers.Production!.calls.slice(productionCalls)).toEqual([{ method: 'GET', path: `/inApps/v1/transactions/${transactionId}` }]);

      const unknown = await byId(s, (await s.newOrder()).id, '2000000777999999');
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('transactionId: the App Store knows no transaction 2000000777999999 (in Production or Sandbox)');
    } finally {
      deps.appStore = sandboxStage;
    }
  });

  it("Apple failing, or refusing the stage's key, is 503 and writes nothing; both or neither of the two fields is 400", async () => {
    await withApi();
    const s = await shop();
    const order = await s.newOrder();
    const transactionId = '2000000777000003';
    servers.Sandbox!.transactions.set(transactionId, await s.bought(order, { transactionId }));
    const before = await itemCount(deps);
    servers.Sandbox!.failNext = 1;
    const failing = await byId(s, order.id, transactionId);
    expect(failing.status).toBe(503);
    expect(failing.body.message).toBe(`the App Store Server API could not read transaction ${transactionId} (HTTP 500, error 5000000); try again later`);
    deps.appStoreApi = loopbackClients(servers, makeApiKey(), BUNDLE);
    const wrongKey = await byId(s, order.id, transactionId);
    expect(wrongKey.status).toBe(503);
    expect(wrongKey.body.message).toMatch(/\(HTTP 401\)/);
    expect(await itemCount(deps)).toBe(before);
    deps.appStoreApi = undefined;
    const noKey = await byId(s, order.id, transactionId);
    expect(noKey.status).toBe(503);
    expect(noKey.body.message).toBe('the App Store Server API is not configured on this stage (keyId, issuerId and privateKey of the AppleConfig setting)');

    for (const body of [{ orderId: order.id }, { orderId: order.id, transactionId, signedTransaction: await s.bought(order) }]) {
      const res = await call(app, 'POST', `${base}/pay/apple/verify`, { token: s.player.platform, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('body: give signedTransaction or transactionId, exactly one');
    }
    expect(await itemCount(deps)).toBe(before);
  });
});
