import { TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOrder } from '../core/payments/orders.js';
import type { AppleSettings } from '../core/app-stores/apple-settings.js';
import { createAllApps } from '../functions/apps.js';
import { loopbackClients, makeApiKey, startAppStoreApi, type AppStoreApi } from './support/app-store-api.js';
import { forge, makeAppleChain, notificationPayload, signJws, transactionPayload } from './support/app-store-signing.js';
import { createTestDeps, itemCount, itemsOfType, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { accountWithToken } from './support/merchants.js';
import { scanAll } from './support/table-snapshot.js';
import { storeOrder } from './support/payments.js';
import { deleteAccountThroughApi } from './support/deleted-players.js';

/**
 * app_asdn-v2-callback: App Store Server Notifications v2, signed by a chain made in the test
 * and verified to its root by Apple's library; each counted once; purchases credited once whichever way they
 * arrive; refunds take tickets back, never below zero; reversals give them back; a refund before any credit
 * bars the purchase.
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
  const { order, player, tickets, spend } = await storeOrder(deps, app, { apple_product_id: PRODUCT });
  const transactionId = String(2_000_000_000_000_000 + Math.floor(Math.random() * 1e12));
  const transaction = (fields: Partial<Parameters<typeof transactionPayload>[0]> = {}) =>
    signJws(chain, transactionPayload({ bundleId: BUNDLE, productId: PRODUCT, appAccountToken: order.app_account_token, transactionId, ...fields }));
  const notification = async (notificationType: string, fields: Partial<Parameters<typeof notificationPayload>[0]> = {}) =>
    signJws(chain, notificationPayload({ notificationType, bundleId: BUNDLE, signedTransactionInfo: await transaction(), ...fields }));
  const verify = async () =>
    call(app, 'POST', `${base}/pay/apple/verify`, { token: player.platform, body: { orderId: order.id, signedTransaction: await transaction() } });
  return { order, player, transactionId, transaction, notification, tickets, spend, verify };
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
    const noLink = await signJws(
      chain,
      notificationPayload({
        notificationType: 'ONE_TIME_CHARGE',
        bundleId: BUNDLE,
        signedTransactionInfo: await signJws(chain, transactionPayload({ bundleId: BUNDLE, productId: PRODUCT })),
      }),
    );
    expect((await notify(noLink)).body.data).toMatchObject({ outcome: 'unmatched', orderId: null });
    const otherProduct = await signJws(
      chain,
      notificationPayload({
        notificationType: 'ONE_TIME_CHARGE',
        bundleId: BUNDLE,
        signedTransactionInfo: await transaction({ productId: 'com.studio.tickets.500' }),
      }),
    );
    expect((await notify(otherProduct)).body.data).toMatchObject({ outcome: 'unmatched', orderId: order.id });
    const recorded = (await itemsOfType(deps, 'apple_notification')).find((n) => n.orderId === order.id);
    expect(recorded).toMatchObject({
      outcome: 'unmatched',
      detail: `signedTransaction: it bought com.studio.tickets.500; order ${order.id} is for ${PRODUCT}`,
    });
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

  it("a reversal of a deleted player's refunded order gives nothing back (their balances were forfeited); the order stays refunded", async () => {
    const { order, player, notification } = await purchase();
    await notify(await notification('ONE_TIME_CHARGE'));
    await notify(await notification('REFUND'));
    await deleteAccountThroughApi(app, player);
    const before = await itemCount(deps);
    const reversed = await notify(await notification('REFUND_REVERSED'));
    expect(reversed.status).toBe(200);
    expect(reversed.body.data).toMatchObject({ outcome: 'not_refunded', orderId: order.id });
    const record = (await itemsOfType(deps, 'apple_notification')).find((n) => n.notificationType === 'REFUND_REVERSED' && n.orderId === order.id);
    expect(record?.detail).toMatch(/deleted their account: nothing is given back/);
    // The notification's record is all it wrote: no ticket reached the pseudonym the kept order names.
    expect(await itemCount(deps)).toBe(before + 1);
    const kept = await findOrder(deps, order.id);
    expect(kept).toMatchObject({ status: 3, user_id: expect.stringMatching(/^former:/) });
    expect((await itemsOfType(deps, 'ledger')).filter((entry) => entry.uid === kept!.user_id && String(entry.ref).startsWith('refund-reversed#'))).toEqual([]);
  });

  it('REVOKE takes the tickets back like a refund; a reversal of a transaction nothing paid or barred is unmatched', async () => {
    const { order, notification, tickets } = await purchase();
    await notify(await notification('ONE_TIME_CHARGE'));
    expect((await notify(await notification('REVOKE'))).body.data).toMatchObject({ outcome: 'refunded', orderId: order.id });
    expect(await tickets()).toBe(0);
    const unpaid = await purchase();
    const before = await scanAll(deps);
    const reversed = await notify(await unpaid.notification('REFUND_REVERSED'));
    expect(reversed.body.data).toMatchObject({ outcome: 'unmatched', orderId: null });
    expect((await scanAll(deps)).filter((item) => item.type !== 'apple_notification')).toEqual(before.filter((item) => item.type !== 'apple_notification'));
  });
});

describe('a refund that comes before the credit', () => {
  /** Every item but the notifications' records, which each delivery adds by design. */
  const effects = async () => (await scanAll(deps)).filter((item) => item.type !== 'apple_notification');

  it.each(['REFUND', 'REVOKE'])(
    '%s bars the purchase: the app-sent transaction verified afterwards and a late ONE_TIME_CHARGE credit nothing',
    async (type) => {
      const { order, transactionId, notification, tickets, verify } = await purchase();
      const before = await scanAll(deps);
      const refund = await notify(await notification(type));
      expect(refund.status).toBe(200);
      expect(refund.body.data).toMatchObject({ notificationType: type, outcome: 'barred', orderId: null });
      expect(documentErrors(document, '/pay/apple/notifications', 'post', 200, refund.body)).toEqual([]);
      // The one effect: the purchase's claim, naming no order.
      const added = (await effects()).filter((item) => !before.some((old) => old.pk === item.pk && old.sk === item.sk));
      expect(added).toEqual([
        expect.objectContaining({ pk: `STORETX#apple#${transactionId}`, orderId: null, barred: type === 'REFUND' ? 'refunded' : 'revoked' }),
      ]);

      const afterBar = await effects();
      const verified = await verify();
      expect(verified.status).toBe(409);
      expect(verified.body.message).toBe(
        `transactionId: store transaction ${transactionId} was ${type === 'REFUND' ? 'refunded' : 'revoked'} by the store before it was credited; it credits nothing`,
      );
      expect(documentErrors(document, '/pay/apple/verify', 'post', 409, verified.body)).toEqual([]);
      const charged = await notify(await notification('ONE_TIME_CHARGE'));
      expect(charged.body.data).toMatchObject({ outcome: 'unmatched', orderId: order.id });
      expect(await effects()).toEqual(afterBar);
      expect(await tickets()).toBe(0);
      expect((await findOrder(deps, order.id))?.status).toBe(0);

      // Another delivery of the refund (a new notification) changes nothing more.
      expect((await notify(await notification(type))).body.data).toMatchObject({ outcome: 'already_barred', orderId: null });
      expect(await effects()).toEqual(afterBar);
    },
  );

  it('REFUND_REVERSED lifts the bar: the purchase can then be credited, once', async () => {
    const { order, transactionId, notification, tickets, verify } = await purchase();
    expect((await notify(await notification('REFUND'))).body.data.outcome).toBe('barred');
    expect((await notify(await notification('REFUND_REVERSED'))).body.data).toMatchObject({ outcome: 'bar_lifted', orderId: null });
    expect((await scanAll(deps)).some((item) => item.pk === `STORETX#apple#${transactionId}`)).toBe(false);
    expect((await verify()).status).toBe(200);
    expect(await tickets()).toBe(100);
    expect((await notify(await notification('REFUND_REVERSED'))).body.data).toMatchObject({ outcome: 'not_refunded', orderId: order.id });
  });

  it('a refund racing the verification: whichever comes first, the player keeps no tickets of a refunded purchase', async () => {
    for (let round = 0; round < 5; round++) {
      const { order, notification, tickets, verify } = await purchase();
      const refund = await notification('REFUND');
      const [verified, refunded] = await Promise.all([verify(), notify(refund)]);
      expect([200, 409]).toContain(verified.status);
      expect(refunded.status).toBe(200);
      expect(await tickets()).toBe(0);
      const status = (await findOrder(deps, order.id))?.status;
      // Credited first then refunded (3), or barred before any credit (still pending, 0).
      expect(refunded.body.data.outcome === 'refunded' ? status === 3 && verified.status === 200 : status === 0 && verified.status === 409).toBe(true);
    }
  });

  it("a bar refused because the credit's transaction held the claim at that moment is sent again: the refund then takes the credit back", async () => {
    const { order, notification, tickets, verify } = await purchase();
    const refund = await notification('REFUND');
    // The race of the test above, made certain: the refund found no claim and puts its bar while the verification's
    // credit is committing. DynamoDB refuses such a lone write (TransactionConflictException, nothing written);
    // here the credit completes meanwhile, and the bar's put is sent again.
    let puts = 0;
    let verified: Awaited<ReturnType<typeof verify>> | undefined;
    deps.db.middlewareStack.add(
      (next, context) => async (args) => {
        const pk = (args.input as { Item?: { pk?: { S?: string } } }).Item?.pk?.S;
        if (context.commandName === 'PutItemCommand' && pk?.startsWith('STORETX#') && puts++ === 0) {
          verified = await verify();
          throw new TransactionConflictException({ message: 'Transaction is ongoing for the item', $metadata: {} });
        }
        return next(args);
      },
      { step: 'build', name: 'bar-meets-the-credit', tags: ['TEST'] },
    );
    try {
      const refunded = await notify(refund);
      expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
      expect(refunded.body.data).toMatchObject({ outcome: 'refunded', orderId: order.id });
    } finally {
      deps.db.middlewareStack.remove('bar-meets-the-credit');
    }
    expect({ puts, verified: verified?.status }).toEqual({ puts: 2, verified: 200 });
    expect(await tickets()).toBe(0);
    expect((await findOrder(deps, order.id))?.status).toBe(3);
  });

  it('a verification retried after the refund of its credited purchase answers the order as it is now', async () => {
    const { order, notification, verify } = await purchase();
    expect((await verify()).status).toBe(200);
    expect((await notify(await notification('REFUND'))).body.data.outcome).toBe('refunded');
    const before = await scanAll(deps);
    const retried = await verify();
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ id: order.id, status: 3 });
    expect(await scanAll(deps)).toEqual(before);
  });
});

describe('CONSUMPTION_REQUEST', () => {
  const key = makeApiKey();
  let sandbox: AppStoreApi;
  beforeAll(async () => {
    sandbox = await startAppStoreApi(key, BUNDLE);
  });
  afterAll(() => sandbox.stop());
  const consenting = async <T>(run: () => Promise<T>): Promise<T> => {
    deps.appStore = { ...stage, consumptionConsent: true };
    deps.appStoreApi = loopbackClients({ Sandbox: sandbox }, key, BUNDLE);
    try {
      return await run();
    } finally {
      deps.appStore = stage;
      deps.appStoreApi = undefined;
    }
  };
  const sent = (transactionId: string) => sandbox.calls.filter((c) => c.method === 'PUT' && c.path === `/inApps/v2/transactions/consumption/${transactionId}`);

  it("tells Apple how much of the purchase's tickets were spent (v2 consumption information), once per notification", async () => {
    await consenting(async () => {
      const untouched = await purchase();
      await notify(await untouched.notification('ONE_TIME_CHARGE'));
      const request = await untouched.notification('CONSUMPTION_REQUEST');
      const res = await notify(request);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ notificationType: 'CONSUMPTION_REQUEST', outcome: 'consumption_sent', orderId: untouched.order.id });
      expect(sent(untouched.transactionId).map((c) => c.body)).toEqual([
        { customerConsented: true, deliveryStatus: 'DELIVERED', consumptionPercentage: 0, refundPreference: 'GRANT_FULL', sampleContentProvided: false },
      ]);
      expect((await notify(request)).body.data.outcome).toBe('duplicate');
      expect(sent(untouched.transactionId)).toHaveLength(1);

      const partly = await purchase();
      await notify(await partly.notification('ONE_TIME_CHARGE'));
      await partly.spend(30);
      await notify(await partly.notification('CONSUMPTION_REQUEST'));
      expect(sent(partly.transactionId).at(-1)?.body).toMatchObject({ consumptionPercentage: 30_000, refundPreference: 'GRANT_PRORATED' });
      await partly.spend(70);
      await notify(await partly.notification('CONSUMPTION_REQUEST'));
      expect(sent(partly.transactionId).at(-1)?.body).toMatchObject({ consumptionPercentage: 100_000, refundPreference: 'DECLINE' });
      expect(await partly.tickets()).toBe(0);

      const undelivered = await purchase();
      await notify(await undelivered.notification('CONSUMPTION_REQUEST'));
      expect(sent(undelivered.transactionId).at(-1)?.body).toMatchObject({ deliveryStatus: 'UNDELIVERED_OTHER', consumptionPercentage: 0 });
    });
  });

  it('sends nothing without declared consent (recorded, acknowledged); Apple unreachable is 503 and writes nothing', async () => {
    const { notification, transactionId } = await purchase();
    await notify(await notification('ONE_TIME_CHARGE'));
    const res = await notify(await notification('CONSUMPTION_REQUEST'));
    expect(res.body.data.outcome).toBe('consumption_not_sent');
    expect(sent(transactionId)).toHaveLength(0);

    await consenting(async () => {
      const before = await itemCount(deps);
      sandbox.failNext = 1;
      const failing = await notify(await notification('CONSUMPTION_REQUEST'));
      expect(failing.status).toBe(503);
      expect(failing.body.message).toBe(
        `the App Store Server API could not send consumption information for transaction ${transactionId} (HTTP 500, error 5000000); try again later`,
      );
      expect(documentErrors(document, '/pay/apple/notifications', 'post', 503, failing.body)).toEqual([]);
      expect(await itemCount(deps)).toBe(before);
    });
  });
});

describe('app_trigger-test-notification', () => {
  const key = makeApiKey();
  let sandbox: AppStoreApi;
  beforeAll(async () => {
    sandbox = await startAppStoreApi(key, BUNDLE);
  });
  afterAll(() => sandbox.stop());
  const trigger = (token: string, body: object = {}) => call(app, 'POST', `${base}/pay/apple/test-notification`, { token, body });

  it('asks Apple for a test notification, reports its delivery, and whether this stage received it', async () => {
    deps.appStoreApi = loopbackClients({ Sandbox: sandbox }, key, BUNDLE);
    try {
      const admin = await accountWithToken(deps, 'admin');
      // What Apple does on the request: sends the TEST notification to the stage's URL (here: this app), then reports it.
      sandbox.onTestRequested = (token) => {
        void (async () => {
          const signedPayload = await signJws(chain, notificationPayload({ notificationType: 'TEST', bundleId: BUNDLE }));
          const delivered = await notify(signedPayload);
          sandbox.testNotifications.set(token, {
            signedPayload,
            sendAttempts: [{ attemptDate: Date.now(), sendAttemptResult: delivered.status === 200 ? 'SUCCESS' : 'UNSUCCESSFUL_HTTP_RESPONSE_CODE' }],
          });
        })();
      };
      const res = await trigger(admin.token);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ environment: 'Sandbox', status: 'sent', received: true, sendAttempts: [{ sendAttemptResult: 'SUCCESS' }] });
      expect(documentErrors(document, '/pay/apple/test-notification', 'post', 200, res.body)).toEqual([]);
      expect(
        sandbox.calls
          .filter((c) => c.path.startsWith('/inApps/v1/notifications/test'))
          .map((c) => c.method)
          .slice(0, 2),
      ).toEqual(['POST', 'GET']);

      // Apple has not sent the next one yet: pending; asked again with its token, reported as Apple has it then.
      sandbox.onTestRequested = undefined;
      const pending = await trigger(admin.token);
      expect(pending.body.data).toMatchObject({ status: 'pending', sendAttempts: [], notificationUUID: null, received: false });
      const token = pending.body.data.testNotificationToken as string;
      const elsewhere = await signJws(chain, notificationPayload({ notificationType: 'TEST', bundleId: BUNDLE }));
      sandbox.testNotifications.set(token, { signedPayload: elsewhere, sendAttempts: [{ attemptDate: Date.now(), sendAttemptResult: 'SUCCESS' }] });
      const later = await trigger(admin.token, { testNotificationToken: token });
      expect(later.body.data).toMatchObject({ testNotificationToken: token, status: 'sent', received: false });

      const unknown = await trigger(admin.token, { testNotificationToken: 'no-such-token' });
      expect(unknown.status).toBe(404);
      expect(documentErrors(document, '/pay/apple/test-notification', 'post', 404, unknown.body)).toEqual([]);
    } finally {
      deps.appStoreApi = undefined;
      sandbox.onTestRequested = undefined;
    }
  });

  it('is for admins (403); an environment the stage does not take is 400; without an API key 503', async () => {
    const merchant = await accountWithToken(deps, 'merchant');
    const admin = await accountWithToken(deps, 'admin');
    const before = sandbox.calls.length;
    expect((await trigger(merchant.token)).status).toBe(403);
    const production = await trigger(admin.token, { environment: 'Production' });
    expect(production.status).toBe(400);
    expect(production.body.message).toBe('environment: this stage takes Sandbox data only');
    const noKey = await trigger(admin.token);
    expect(noKey.status).toBe(503);
    expect(noKey.body).toEqual({
      statusCode: 503,
      message: 'the App Store Server API is not configured on this stage (keyId, issuerId and privateKey of the AppleConfig setting)',
      error: 'appstore.unconfigured',
    });
    expect(sandbox.calls.length).toBe(before);
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
      [
        'another root',
        await signJws(makeAppleChain('Other Root'), notificationPayload({ notificationType: 'TEST', bundleId: BUNDLE })),
        "signedPayload: not verified: its signature or certificate chain is not Apple's",
      ],
      [
        'another app',
        await signJws(chain, notificationPayload({ notificationType: 'TEST', bundleId: 'com.other.game' })),
        'signedPayload: not verified: it is for another app (bundle id or app Apple id)',
      ],
      [
        'Production data',
        await signJws(chain, notificationPayload({ notificationType: 'TEST', bundleId: BUNDLE, environment: 'Production', appAppleId: 1 })),
        'signedPayload: Production data is not taken on this stage (it takes Sandbox)',
      ],
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
      const production = (appAppleId: number) =>
        signJws(chain, notificationPayload({ notificationType: 'TEST', bundleId: BUNDLE, environment: 'Production', appAppleId }));
      expect((await notify(await production(1234567890))).status).toBe(200);
      const other = await notify(await production(999));
      expect(other.status).toBe(400);
      expect(other.body.message).toBe('signedPayload: not verified: it is for another app (bundle id or app Apple id)');
    } finally {
      deps.appStore = stage;
    }
  });
});
