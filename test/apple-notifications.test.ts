import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { findOrder } from '../core/payments/orders.js';
import { saveLevel } from '../core/payments/projects.js';
import { transactOrFailedConditions } from '../core/platform/transactions.js';
import type { AppleSettings } from '../core/stores/apple-settings.js';
import { balanceOf, debitItems } from '../core/tickets/balances.js';
import { createAllApps } from '../functions/apps.js';
import { forge, makeAppleChain, notificationPayload, signJws, transactionPayload } from './support/app-store-signing.js';
import { createTestDeps, itemCount, itemsOfType, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { playerWithTokens, projectWithLevel } from './support/payments.js';

/**
 * app_asdn-v2-callback (issue 12 item 3): App Store Server Notifications v2, signed by a chain made in the test
 * and verified to its root by Apple's library; each counted once; purchases credited once whichever way they
 * arrive; refunds take tickets back, never below zero; reversals give them back.
 */

const base = '/v2-testing';
const document = servedDocument(base);
const BUNDLE = 'com.studio.game';
const PRODUCT = 'com.studio.tickets.100';
const chain = makeAppleChain();
const stage: AppleSettings = { bundleId: BUNDLE, environment: 'Sandbox', allowSandbox: false, rootCertificates: [chain.root], onlineChecks: false };

let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
beforeAll(async () => {
  deps = await createTestDeps();
  deps.appStore = stage;
  app = createAllApps(deps);
});

const notify = (signedPayload: string) => call(app, 'POST', `${base}/pay/apple/notifications`, { body: { signedPayload } });

/** A player's pending order of a level sold as PRODUCT, and what the App Store signs about its purchase. */
async function purchase() {
  const setup = await projectWithLevel(deps);
  const project = setup.project.project_name;
  await saveLevel(deps, setup.owner.claims, { project_name: project, level: 1, amount: '1500000000', tickets: 100, status: 1, apple_product_id: PRODUCT });
  const player = await playerWithTokens(deps);
  const res = await call(app, 'POST', `${base}/account/user/rechargeOrder`, {
    token: player.platform,
    body: { userId: player.uid, project, priceId: setup.level.priceId, prevId: -1, level: 1, amount: '1500000000' },
  });
  const order = res.body as { id: number; app_account_token: string };
  const transactionId = String(2_000_000_000_000_000 + Math.floor(Math.random() * 1e12));
  const transaction = (fields: Partial<Parameters<typeof transactionPayload>[0]> = {}) =>
    signJws(chain, transactionPayload({ bundleId: BUNDLE, productId: PRODUCT, appAccountToken: order.app_account_token, transactionId, ...fields }));
  const notification = async (notificationType: string, fields: Partial<Parameters<typeof notificationPayload>[0]> = {}) =>
    signJws(chain, notificationPayload({ notificationType, bundleId: BUNDLE, signedTransactionInfo: await transaction(), ...fields }));
  const tickets = () => balanceOf(deps, { uid: player.uid, projectName: project, level: 1 });
  const spend = async (amount: number) => {
    const failed = await transactOrFailedConditions(deps, debitItems(deps, { uid: player.uid, projectName: project, level: 1 }, amount, `test#${randomUUID()}`));
    expect(failed).toEqual([]);
  };
  const verify = async () =>
    call(app, 'POST', `${base}/pay/apple/verify`, { token: player.platform, body: { orderId: order.id, signedTransaction: await transaction() } });
  return { order, transactionId, transaction, notification, tickets, spend, verify };
}

describe('ONE_TIME_CHARGE', () => {
  it('credits the order the purchase names (tx_type 2); the same notification again is a duplicate that writes nothing', async () => {
    const { order, notification, tickets } = await purchase();
    const jws = await notification('ONE_TIME_CHARGE');
    const res = await notify(jws);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ notificationType: 'ONE_TIME_CHARGE', outcome: 'credited', orderId: order.id });
    expect(documentErrors(document, '/pay/apple/notifications', 'post', 200, res.body)).toEqual([]);
    expect(await findOrder(deps, order.id)).toMatchObject({ status: 1, tx_type: 2 });
    expect(await tickets()).toBe(100);

    const before = await itemCount(deps);
    const again = await notify(jws);
    expect(again.body.data).toMatchObject({ outcome: 'duplicate', orderId: order.id });
    expect(await itemCount(deps)).toBe(before);
    expect(await tickets()).toBe(100);
  });

  it('verification then notification of one purchase credit once, and the other way round', async () => {
    const first = await purchase();
    expect((await first.verify()).status).toBe(200);
    expect((await notify(await first.notification('ONE_TIME_CHARGE'))).body.data.outcome).toBe('already_credited');
    expect(await first.tickets()).toBe(100);

    const second = await purchase();
    expect((await notify(await second.notification('ONE_TIME_CHARGE'))).body.data.outcome).toBe('credited');
    const verified = await second.verify();
    expect(verified.status).toBe(200);
    expect(verified.body.data).toMatchObject({ id: second.order.id, status: 1 });
    expect(await second.tickets()).toBe(100);
  });

  it('20 simultaneous deliveries of one notification credit once', async () => {
    const { notification, tickets } = await purchase();
    const jws = await notification('ONE_TIME_CHARGE');
    const answers = await Promise.all(Array.from({ length: 20 }, () => notify(jws)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.body.data.outcome === 'credited')).toHaveLength(1);
    expect(await tickets()).toBe(100);
  });

  it('a purchase no order takes is recorded as unmatched and acknowledged, crediting nothing', async () => {
    const { order, transaction, tickets } = await purchase();
    const noLink = await signJws(chain, notificationPayload({ notificationType: 'ONE_TIME_CHARGE', bundleId: BUNDLE, signedTransactionInfo: await signJws(chain, transactionPayload({ bundleId: BUNDLE, productId: PRODUCT })) }));
    expect((await notify(noLink)).body.data).toMatchObject({ outcome: 'unmatched', orderId: null });
    const otherProduct = await signJws(chain, notificationPayload({ notificationType: 'ONE_TIME_CHARGE', bundleId: BUNDLE, signedTransactionInfo: await transaction({ productId: 'com.studio.tickets.500' }) }));
    expect((await notify(otherProduct)).body.data).toMatchObject({ outcome: 'unmatched', orderId: order.id });
    const recorded = (await itemsOfType(deps, 'apple_notification')).find((n) => n.orderId === order.id);
    expect(recorded).toMatchObject({ outcome: 'unmatched', detail: `signedTransaction: it bought com.studio.tickets.500; order ${order.id} is for ${PRODUCT}` });
    expect(await tickets()).toBe(0);
    expect((await findOrder(deps, order.id))?.status).toBe(0);
  });
});

describe('refunds', () => {
  it('REFUND after some tickets were spent takes what is left, records the shortfall and turns the order 3; REFUND_REVERSED gives it back', async () => {
    const { order, notification, tickets, spend } = await purchase();
    await notify(await notification('ONE_TIME_CHARGE'));
    await spend(30);
    const refund = await notify(await notification('REFUND'));
    expect(refund.body.data).toMatchObject({ outcome: 'refunded', orderId: order.id });
    expect(await tickets()).toBe(0);
    expect(await findOrder(deps, order.id)).toMatchObject({ status: 3, refund_taken: 70, refund_shortfall: 30 });
    expect((await itemsOfType(deps, 'apple_notification')).find((n) => n.notificationType === 'REFUND' && n.orderId === order.id)).toMatchObject({
      detail: '30 of 100 tickets were spent already',
    });

    // A second REFUND notification (another delivery of the same refund, a new UUID) takes nothing more.
    expect((await notify(await notification('REFUND'))).body.data.outcome).toBe('already_refunded');
    expect(await tickets()).toBe(0);

    const reversed = await notify(await notification('REFUND_REVERSED'));
    expect(reversed.body.data).toMatchObject({ outcome: 'refund_reversed', orderId: order.id });
    expect(await tickets()).toBe(70);
    const after = await findOrder(deps, order.id);
    expect(after?.status).toBe(1);
    expect(after?.refund_taken).toBeUndefined();
    expect((await notify(await notification('REFUND_REVERSED'))).body.data.outcome).toBe('not_refunded');
    expect(await tickets()).toBe(70);
  });

  it('REVOKE takes the tickets back like a refund; a refund of a transaction no order was paid by is unmatched', async () => {
    const { order, notification, tickets } = await purchase();
    await notify(await notification('ONE_TIME_CHARGE'));
    expect((await notify(await notification('REVOKE'))).body.data).toMatchObject({ outcome: 'refunded', orderId: order.id });
    expect(await tickets()).toBe(0);
    const unpaid = await purchase();
    expect((await notify(await unpaid.notification('REFUND'))).body.data).toMatchObject({ outcome: 'unmatched', orderId: null });
  });
});

describe('other notifications and refusals', () => {
  it('TEST and types with no effect here are recorded and acknowledged', async () => {
    for (const type of ['TEST', 'SOMETHING_APPLE_ADDS_LATER', 'PRICE_CHANGE']) {
      const res = await notify(await signJws(chain, notificationPayload({ notificationType: type, bundleId: BUNDLE })));
      expect(res.status, type).toBe(200);
      expect(res.body.data).toMatchObject({ notificationType: type, outcome: 'recorded', orderId: null });
    }
  });

  it('refuses what cannot be verified with 400 (Apple retries), writing nothing', async () => {
    const { notification } = await purchase();
    const before = await itemCount(deps);
    const cases: [string, string, string][] = [
      ['forged', forge(await notification('ONE_TIME_CHARGE')), "signedPayload: not verified: its signature or certificate chain is not Apple's"],
      ['another root', await signJws(makeAppleChain('Other Root'), notificationPayload({ notificationType: 'TEST', bundleId: BUNDLE })), "signedPayload: not verified: its signature or certificate chain is not Apple's"],
      ['another app', await signJws(chain, notificationPayload({ notificationType: 'TEST', bundleId: 'com.other.game' })), 'signedPayload: not verified: it is for another app (bundle id or app Apple id)'],
      ['Production data', await signJws(chain, notificationPayload({ notificationType: 'TEST', bundleId: BUNDLE, environment: 'Production', appAppleId: 1 })), 'signedPayload: Production data is not taken on this stage (it takes Sandbox)'],
    ];
    for (const [why, jws, message] of cases) {
      const res = await notify(jws);
      expect(res.status, why).toBe(400);
      expect(res.body.message, why).toBe(message);
    }
    expect((await call(app, 'POST', `${base}/pay/apple/notifications`, { body: { signedPayload: 42 } })).body.message).toMatch(/^body\.signedPayload: /);
    expect(await itemCount(deps)).toBe(before);
  });

  it("a Production stage checks the notification's app Apple id", async () => {
    deps.appStore = { ...stage, environment: 'Production', appAppleId: 1234567890 };
    try {
      const production = (appAppleId: number) => signJws(chain, notificationPayload({ notificationType: 'TEST', bundleId: BUNDLE, environment: 'Production', appAppleId }));
      expect((await notify(await production(1234567890))).status).toBe(200);
      const other = await notify(await production(999));
      expect(other.status).toBe(400);
      expect(other.body.message).toBe('signedPayload: not verified: it is for another app (bundle id or app Apple id)');
    } finally {
      deps.appStore = stage;
    }
  });
});
