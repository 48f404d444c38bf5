import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOrder } from '../core/payments/orders.js';
import { parseGoogleSettings, type GoogleSettings } from '../core/app-stores/google-settings.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, itemCount, itemsOfType, type TestDeps } from './support/deps.js';
import { notifications, PUSH_ACCOUNT, pushBody, startLoopbackGoogle, type LoopbackGoogle } from './support/google-play.js';
import { call } from './support/http.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { storeOrder } from './support/payments.js';
import { scanAll } from './support/table-snapshot.js';
import { purchaseClaimId } from '../core/app-stores/google-notifications.js';

/**
 * google_callback (docs/api.md, "Google Play"): Play real-time developer notifications pushed by Pub/Sub, the push's
 * OIDC token verified with jose against a loopback Google's keys, purchases read back from and consumed through a
 * loopback Play Developer API (its OAuth token endpoint checks the service account's signed assertion).
 */

const base = '/v2-testing';
const path = `${base}/pay/google/notifications`;
const document = servedDocument(base);
const PACKAGE = 'com.studio.game';
const PRODUCT = 'tickets_100';
const AUDIENCE = 'https://api.example.com/v2-testing/pay/google/notifications';

let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
let google: LoopbackGoogle;
let stage: GoogleSettings;
beforeAll(async () => {
  deps = await createTestDeps();
  google = await startLoopbackGoogle(PACKAGE);
  stage = parseGoogleSettings(
    JSON.stringify({
      packageName: PACKAGE,
      pushAudience: AUDIENCE,
      pushServiceAccount: PUSH_ACCOUNT,
      serviceAccountKey: google.account.json,
      poisonAttempts: 3,
      googleCerts: google.certsUrl,
      playApi: google.url,
    }),
  )!;
  deps.googlePlay = stage;
  app = createAllApps(deps);
});
afterAll(() => google.stop());

/** A push as Pub/Sub makes it: the body, and its OIDC token (claims overridable). */
async function push(body: object, claims: Record<string, unknown> = {}) {
  const token = await google.signPushToken({ aud: AUDIENCE, ...claims });
  return call(app, 'POST', path, { body, headers: { authorization: `Bearer ${token}` } });
}

/** A player's pending order of a level sold as PRODUCT on Google Play, and its purchase as Google knows it. */
async function purchase(fields: Partial<Parameters<LoopbackGoogle['purchases']['set']>[1]> = {}) {
  const { order, tickets, spend } = await storeOrder(deps, app, { google_product_id: PRODUCT });
  const token = `${randomUUID()}.AO-J1Oz${randomUUID().replaceAll('-', '')}`;
  const googleOrderId = `GPA.${Math.floor(Math.random() * 1e4)}-${Math.floor(Math.random() * 1e4)}-${Math.floor(Math.random() * 1e4)}-${Math.floor(Math.random() * 1e5)}`;
  google.purchases.set(token, {
    productId: PRODUCT,
    purchaseState: 0,
    consumptionState: 0,
    acknowledgementState: 0,
    orderId: googleOrderId,
    obfuscatedExternalAccountId: order.app_account_token,
    ...fields,
  });
  return {
    order,
    token,
    bought: (messageId?: string) => pushBody(notifications.purchased(PACKAGE, token, PRODUCT), messageId),
    voided: () => pushBody(notifications.voided(PACKAGE, token, googleOrderId)),
    tickets,
    spend,
  };
}

const consumes = (token: string) => google.calls.filter((c) => c.method === 'POST' && c.path.endsWith(`/tokens/${encodeURIComponent(token)}:consume`));

describe('purchases', () => {
  it('credits the order the purchase names (tx_type 3) and consumes it; the same message again is a duplicate that writes nothing', async () => {
    const p = await purchase();
    const body = p.bought();
    const res = await push(body);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ messageId: body.message.messageId, notification: 'one_time_product:purchased', outcome: 'credited', orderId: p.order.id });
    expect(documentErrors(document, '/pay/google/notifications', 'post', 200, res.body)).toEqual([]);
    expect(await findOrder(deps, p.order.id)).toMatchObject({ status: 1, tx_type: 3 });
    expect(await p.tickets()).toBe(100);
    expect(google.purchases.get(p.token)).toMatchObject({ consumptionState: 1, acknowledgementState: 1 });
    expect(consumes(p.token)).toHaveLength(1);

    const before = await itemCount(deps);
    const again = await push(body);
    expect(again.body.data).toMatchObject({ outcome: 'duplicate', orderId: p.order.id });
    expect(await itemCount(deps)).toBe(before);
    expect(await p.tickets()).toBe(100);
    // Another message about the same purchase (Play sent it twice): credited already, nothing more.
    expect((await push(p.bought())).body.data.outcome).toBe('already_credited');
    expect(await p.tickets()).toBe(100);
    expect(consumes(p.token)).toHaveLength(1);
  });

  it('20 simultaneous deliveries of one message credit once', async () => {
    const p = await purchase();
    const body = p.bought();
    const answers = await Promise.all(Array.from({ length: 20 }, () => push(body)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.body.data.outcome === 'credited')).toHaveLength(1);
    expect(await p.tickets()).toBe(100);
    expect(google.purchases.get(p.token)?.consumptionState).toBe(1);
  });

  it('a purchase no order takes is recorded as unmatched and left unconsumed (Google refunds it), crediting nothing', async () => {
    const otherProduct = await purchase();
    google.purchases.set(otherProduct.token, { ...google.purchases.get(otherProduct.token)!, productId: 'tickets_500' });
    const res = await push(pushBody(notifications.purchased(PACKAGE, otherProduct.token, 'tickets_500')));
    expect(res.body.data).toMatchObject({ outcome: 'unmatched', orderId: otherProduct.order.id });
    const recorded = (await itemsOfType(deps, 'google_notification')).find((n) => n.orderId === otherProduct.order.id);
    expect(recorded).toMatchObject({ detail: `purchase: it bought tickets_500; order ${otherProduct.order.id} is for ${PRODUCT}` });

    const noLink = await purchase({ obfuscatedExternalAccountId: undefined });
    expect((await push(noLink.bought())).body.data).toMatchObject({ outcome: 'unmatched', orderId: null });
    const twoAtOnce = await purchase({ quantity: 2 });
    expect((await push(twoAtOnce.bought())).body.data.outcome).toBe('unmatched');
    const pending = await purchase({ purchaseState: 2 });
    expect((await push(pending.bought())).body.data.outcome).toBe('pending');
    const unknown = pushBody(notifications.purchased(PACKAGE, 'no-such-token', PRODUCT));
    expect((await push(unknown)).body.data).toMatchObject({ outcome: 'unmatched', orderId: null });

    for (const p of [otherProduct, noLink, twoAtOnce, pending]) {
      expect(await p.tickets()).toBe(0);
      expect((await findOrder(deps, p.order.id))?.status).toBe(0);
      expect(consumes(p.token)).toHaveLength(0);
    }
  });

  it("a second purchase for a paid order is unmatched and not consumed; the first purchase's message again credits nothing", async () => {
    const p = await purchase();
    await push(p.bought());
    const second = `${randomUUID()}.second`;
    google.purchases.set(second, { ...google.purchases.get(p.token)!, consumptionState: 0, acknowledgementState: 0 });
    const res = await push(pushBody(notifications.purchased(PACKAGE, second, PRODUCT)));
    expect(res.body.data).toMatchObject({ outcome: 'unmatched', orderId: p.order.id });
    expect(consumes(second)).toHaveLength(0);
    expect(await p.tickets()).toBe(100);
  });
});

describe('voided purchases', () => {
  it('take back what is left after spending, record the shortfall, turn the order 3; once', async () => {
    const p = await purchase();
    await push(p.bought());
    await p.spend(40);
    const res = await push(p.voided());
    expect(res.body.data).toMatchObject({ notification: 'voided_purchase', outcome: 'refunded', orderId: p.order.id });
    expect(await p.tickets()).toBe(0);
    expect(await findOrder(deps, p.order.id)).toMatchObject({ status: 3, refund_taken: 60, refund_shortfall: 40 });
    expect((await push(p.voided())).body.data.outcome).toBe('already_refunded');
    expect(await p.tickets()).toBe(0);
  });

  it('a purchase voided before its purchase message is barred: the message then credits nothing and leaves it unconsumed', async () => {
    const p = await purchase();
    const before = await scanAll(deps);
    const voided = await push(p.voided());
    expect(voided.status).toBe(200);
    expect(voided.body.data).toMatchObject({ notification: 'voided_purchase', outcome: 'barred', orderId: null });
    const added = (await scanAll(deps)).filter(
      (item) => item.type !== 'google_notification' && !before.some((old) => old.pk === item.pk && old.sk === item.sk),
    );
    expect(added).toEqual([expect.objectContaining({ pk: `STORETX#google#${purchaseClaimId(p.token)}`, orderId: null, barred: 'voided' })]);

    const bought = await push(p.bought());
    expect(bought.body.data).toMatchObject({ outcome: 'unmatched', orderId: p.order.id });
    expect(await p.tickets()).toBe(0);
    expect((await findOrder(deps, p.order.id))?.status).toBe(0);
    expect(consumes(p.token)).toHaveLength(0);
    expect((await push(p.voided())).body.data).toMatchObject({ outcome: 'already_barred', orderId: null });
  });
});

describe('the push token', () => {
  it("refuses a push without a valid token from the stage's push account with 401, writing nothing", async () => {
    const p = await purchase();
    const body = p.bought();
    const before = await itemCount(deps);
    const cases: [string, () => ReturnType<typeof call>, string][] = [
      ['none', () => call(app, 'POST', path, { body }), 'Authorization: a Pub/Sub push OIDC token (Bearer) is required'],
      [
        'expired',
        async () =>
          call(app, 'POST', path, { body, headers: { authorization: `Bearer ${await google.signPushToken({ aud: AUDIENCE }, { expiresIn: '-1m' })}` } }),
        'Authorization: expired',
      ],
      ['another audience', () => push(body, { aud: 'https://other.example/push' }), 'Authorization: audience is not a client id of this stage'],
      ['another account', () => push(body, { email: 'someone@other.iam.gserviceaccount.com' }), "Authorization: not the stage's push service account"],
      ['email not verified', () => push(body, { email_verified: false }), 'Authorization: the service account email is not verified'],
      ['another issuer', () => push(body, { iss: 'https://issuer.example' }), 'Authorization: unknown issuer'],
      [
        'a key not in the JWKS',
        async () => call(app, 'POST', path, { body, headers: { authorization: `Bearer ${await google.signPushToken({ aud: AUDIENCE }, { key: 'other' })}` } }),
        'Authorization: signature does not verify',
      ],
    ];
    // The push token is an id_token of Google's: its checks answer the id_token codes, the push account's its own.
    const pushRefusalCodes: Record<string, string> = {
      none: 'googleplay.push_token_missing',
      expired: 'id_token.expired',
      'another audience': 'id_token.invalid',
      'another account': 'googleplay.push_sender_refused',
      'email not verified': 'googleplay.push_sender_refused',
      'another issuer': 'id_token.invalid',
      'a key not in the JWKS': 'id_token.invalid',
    };
    for (const [why, send, message] of cases) {
      const res = await send();
      expect(res.status, why).toBe(401);
      expect(res.body, why).toEqual({ statusCode: 401, message, error: pushRefusalCodes[why] });
      expect(documentErrors(document, '/pay/google/notifications', 'post', 401, res.body), why).toEqual([]);
    }
    expect(await itemCount(deps)).toBe(before);
    expect(await p.tickets()).toBe(0);
  });
});

describe('failures and poison messages', () => {
  it('Google failing is 503 and writes nothing, however often; the redelivery then credits', async () => {
    const p = await purchase();
    const body = p.bought();
    const before = await itemCount(deps);
    for (let i = 0; i < 4; i++) {
      google.failNext = 1;
      const res = await push(body);
      expect(res.status).toBe(503);
      expect(res.body.message).toBe('Google Play could not read the purchase (HTTP 500); try again later');
    }
    google.failNext = 1;
    expect(documentErrors(document, '/pay/google/notifications', 'post', 503, (await push(body)).body)).toEqual([]);
    expect(await itemCount(deps)).toBe(before);
    expect((await push(body)).body.data.outcome).toBe('credited');
  });

  it('a message that fails the same permanent way is counted, and acknowledged as poison the poisonAttempts-th time', async () => {
    const garbage = {
      message: { data: Buffer.from('not json').toString('base64'), messageId: String(Date.now()) },
      subscription: 'projects/p/subscriptions/s',
    };
    for (let attempt = 1; attempt < 3; attempt++) {
      const res = await push(garbage);
      expect(res.status, `attempt ${attempt}`).toBe(400);
      expect(res.body.message).toBe('message.data: not the Base64 of a developer notification (JSON object)');
    }
    const last = await push(garbage);
    expect(last.status).toBe(200);
    expect(last.body.data).toEqual({ messageId: garbage.message.messageId, notification: 'unreadable', outcome: 'poison', orderId: null });
    expect((await push(garbage)).body.data.outcome).toBe('duplicate');
    const record = (await itemsOfType(deps, 'google_notification')).find((n) => n.pk === `GOOGLEMSG#${garbage.message.messageId}`);
    expect(record).toMatchObject({ failures: 3, outcome: 'poison' });

    const otherApp = await push(pushBody(notifications.test('com.other.game')));
    expect(otherApp.status).toBe(400);
    expect(otherApp.body.message).toBe('message.data.packageName: "com.other.game" is not this stage\'s app');
  });

  it('a malformed push body is 400 naming the field, written nowhere', async () => {
    const before = await itemCount(deps);
    const res = await push({ message: { data: 'x', messageId: 'bad id!' }, subscription: 's' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^body\.message\.messageId: /);
    expect(await itemCount(deps)).toBe(before);
  });
});

describe('other notifications and settings', () => {
  it('test notifications are recorded and acknowledged', async () => {
    const res = await push(pushBody(notifications.test(PACKAGE)));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ notification: 'test', outcome: 'recorded', orderId: null });
  });

  it('a stage without GoogleConfig answers 503 naming it; without the API key, purchases are 503 and test notifications still recorded', async () => {
    deps.googlePlay = undefined;
    try {
      const res = await push(pushBody(notifications.test(PACKAGE)));
      expect(res.status).toBe(503);
      expect(res.body.message).toBe('Google Play purchases are not configured on this stage (the GoogleConfig setting)');
      const { serviceAccount: _key, ...noKey } = stage;
      deps.googlePlay = noKey;
      expect((await push(pushBody(notifications.test(PACKAGE)))).status).toBe(200);
      const p = await purchase();
      const bought = await push(p.bought());
      expect(bought.status).toBe(503);
      expect(bought.body.message).toBe('the Play Developer API is not configured on this stage (serviceAccountKey of the GoogleConfig setting)');
    } finally {
      deps.googlePlay = stage;
    }
  });

  it('refuses a bad GoogleConfig naming the field', () => {
    const good = { packageName: PACKAGE, pushAudience: AUDIENCE, pushServiceAccount: PUSH_ACCOUNT };
    expect(parseGoogleSettings(JSON.stringify(good))).toMatchObject({ ...good, poisonAttempts: 5, playApi: 'https://androidpublisher.googleapis.com' });
    expect(parseGoogleSettings('')).toBeUndefined();
    expect(() => parseGoogleSettings('{')).toThrow('google config: not valid JSON');
    expect(() => parseGoogleSettings(JSON.stringify({ ...good, packageName: 'game' }))).toThrow(/packageName/);
    expect(() => parseGoogleSettings(JSON.stringify({ ...good, pushServiceAccount: 'nobody' }))).toThrow(/pushServiceAccount/);
    expect(() => parseGoogleSettings(JSON.stringify({ ...good, poisonAttempts: 0 }))).toThrow(/poisonAttempts/);
    expect(() => parseGoogleSettings(JSON.stringify({ ...good, serviceAccountKey: { client_email: 'a@b' } }))).toThrow(/serviceAccountKey\.private_key/);
  });
});
