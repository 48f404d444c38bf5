import { createPublicKey, randomUUID, verify } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { bcs } from '@mysten/sui/bcs';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Secp256r1PublicKey } from '@mysten/sui/keypairs/secp256r1';
import type { Hono } from 'hono';
import { storePaymentEvent } from '../core/payments/chain-payments.js';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { rewardKey } from '../core/goods/keys.js';
import { composeApps, createGroupApp } from '../core/http/app.js';
import { defineGroup, type OperationSpec } from '../core/http/operation.js';
import { setMerchantStatus } from '../core/merchants/merchants.js';
import { MerchantStatus } from '../core/merchants/models.js';
import { STATE_TTL_MS } from '../core/access/principals.js';
import type { TokenKind } from '../core/platform/tokens.js';
import { balanceOf, ledgerKey } from '../core/tickets/balances.js';
import { transactOrFailedConditions } from '../core/platform/transactions.js';
import { innerGoodsOps, payGoodsOps } from '../functions/routes/goods.js';
import { innerGoodsHandlers, payGoodsHandlers } from '../functions/handlers/goods.js';
import { createTestDeps, itemCount as countItems, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { giveTickets, goodsFor, merchantWithProject, player, putPayOrder } from './support/goods.js';

let deps: TestDeps;
let app: Hono;
const base = '/v2-testing';

beforeAll(async () => {
  deps = await createTestDeps();
  // The vendor operations on their own, as the inner and pay groups will serve them.
  app = composeApps(deps.stage, [
    createGroupApp(deps, defineGroup('inner', 'main', innerGoodsOps), innerGoodsHandlers),
    createGroupApp(deps, defineGroup('pay', 'main', payGoodsOps), payGoodsHandlers),
  ]);
});

const itemCount = () => countItems(deps);
const ticketsOf = (uid: string, projectName: string, level = 1) => balanceOf(deps, { uid, projectName, level });

describe('goods catalogue', () => {
  it("creates goods in the merchant's own project and lists only the caller's goods, newest first", async () => {
    const owner = await merchantWithProject(deps);
    const created = await call(app, 'POST', `${base}/merchant/goods`, {
      token: owner.token,
      body: { name: 'Potion', projectName: owner.project.project_name, level: 2, price: 7 },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      code: 200,
      message: 'success',
      data: {
        id: expect.any(Number),
        name: 'Potion',
        projectName: owner.project.project_name,
        level: 2,
        price: 7,
        status: 1,
        merchant_id: owner.merchant.id,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    const second = await goodsFor(deps, owner);
    await goodsFor(deps, await merchantWithProject(deps));

    const list = await call(app, 'GET', `${base}/merchant/goods`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual({ total: '2', goods: [second, created.body.data] });
    const page = await call(app, 'GET', `${base}/merchant/goods`, { token: owner.token, query: { page: 1, pageSize: 1 } });
    expect(page.body.data).toEqual({ total: '2', goods: [created.body.data] });
  });

  it("refuses another merchant's project (403), an unknown one (404) and a suspended merchant (403), writing nothing", async () => {
    const owner = await merchantWithProject(deps);
    const other = await merchantWithProject(deps);
    const before = await itemCount();
    const foreign = await call(app, 'POST', `${base}/merchant/goods`, {
      token: other.token,
      body: { name: 'x', projectName: owner.project.project_name, level: 1, price: 1 },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ code: 403, message: expect.stringMatching(/^projectName/), data: null, error: 'access.other_owner' });
    const unknown = await call(app, 'POST', `${base}/merchant/goods`, {
      token: other.token,
      body: { name: 'x', projectName: 'no-such-project', level: 1, price: 1 },
    });
    expect(unknown.status).toBe(404);
    await setMerchantStatus(deps, other.merchant.id, MerchantStatus.suspended);
    // Goods creation moves no value: a suspension stops it within the documented bound (STATE_TTL_MS), the
    // state this process read for the calls above being remembered until then.
    deps.setNow(new Date(Date.now() + STATE_TTL_MS + 1_000));
    try {
      const suspended = await call(app, 'POST', `${base}/merchant/goods`, {
        token: other.token,
        body: { name: 'x', projectName: other.project.project_name, level: 1, price: 1 },
      });
      expect(suspended.status).toBe(403);
      expect(suspended.body.message).toBe('merchant is suspended');
    } finally {
      deps.setNow(undefined);
    }
    expect(await itemCount()).toBe(before);
  });
});

describe('createOrder', () => {
  it("takes price × quantity from the player's balance and stores the order with a trace key", async () => {
    const owner = await merchantWithProject(deps);
    const goods = await goodsFor(deps, owner, { price: 5 });
    const buyer = await player(deps);
    const projectName = owner.project.project_name;
    await giveTickets(deps, { uid: buyer.uid, projectName, level: 1 }, 20);

    const res = await call(app, 'POST', `${base}/account/vendor/order`, {
      token: buyer.token,
      body: { userId: buyer.uid, goodsId: goods.id, quantity: 3, projectName },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: expect.any(Object), statusCode: 200, message: 'success', totalPage: 1 });
    const order = res.body.data;
    expect(order).toEqual({
      id: expect.any(Number),
      goodsId: goods.id,
      quantity: 3,
      projectName,
      level: 1,
      userId: buyer.uid,
      total: 15,
      outerOrderId: null,
      trace_key: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      status: 1,
      merchant_id: owner.merchant.id,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await ticketsOf(buyer.uid, projectName)).toBe(5);
    expect(
      (await deps.db.send(new GetCommand({ TableName: deps.table, Key: ledgerKey(buyer.uid, `goods#${order.id}`), ConsistentRead: true }))).Item,
    ).toMatchObject({ change: -15 });
    // The merchant finds it by its trace key.
    const traced = await call(app, 'GET', `${base}/account/vendor/traceKey`, { token: owner.serverToken, query: { key: order.trace_key } });
    expect(traced.body.data).toEqual(order);
  });

  it('refuses a short balance (409) and takes nothing', async () => {
    const owner = await merchantWithProject(deps);
    const goods = await goodsFor(deps, owner, { price: 5 });
    const buyer = await player(deps);
    const projectName = owner.project.project_name;
    await giveTickets(deps, { uid: buyer.uid, projectName, level: 1 }, 14);
    const body = { userId: buyer.uid, goodsId: goods.id, quantity: 3, projectName };
    // An earlier order, so the order id counter exists: a refused order takes an id (unique, not dense) but adds no item.
    expect((await call(app, 'POST', `${base}/account/vendor/order`, { token: buyer.token, body: { ...body, quantity: 1 } })).status).toBe(200);
    const before = await itemCount();
    const res = await call(app, 'POST', `${base}/account/vendor/order`, { token: buyer.token, body });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ statusCode: 409, message: expect.stringMatching(/^quantity: .*less than the 15 tickets/), error: 'tickets.balance_short' });
    expect(await ticketsOf(buyer.uid, projectName)).toBe(9);
    expect(await itemCount()).toBe(before);

    const stranger = await player(deps);
    const withStranger = await itemCount();
    const noBalance = await call(app, 'POST', `${base}/account/vendor/order`, { token: stranger.token, body: { ...body, userId: stranger.uid } });
    expect(noBalance.status).toBe(409);
    expect(await itemCount()).toBe(withStranger);
  });

  it("refuses ordering for another user (403), another project's name (400), unknown (404) and withdrawn goods (409)", async () => {
    const owner = await merchantWithProject(deps);
    const goods = await goodsFor(deps, owner);
    const withdrawn = await goodsFor(deps, owner, { status: 0 });
    const buyer = await player(deps);
    const projectName = owner.project.project_name;
    await giveTickets(deps, { uid: buyer.uid, projectName, level: 1 }, 100);
    const order = (body: object) =>
      call(app, 'POST', `${base}/account/vendor/order`, {
        token: buyer.token,
        body: { userId: buyer.uid, goodsId: goods.id, quantity: 1, projectName, ...body },
      });
    const another = await merchantWithProject(deps);
    const before = await itemCount();

    const forOther = await order({ userId: randomUUID() });
    expect(forOther.status).toBe(403);
    expect(forOther.body.message).toMatch(/^userId/);
    const wrongProject = await order({ projectName: another.project.project_name });
    expect(wrongProject.status).toBe(400);
    expect(wrongProject.body.message).toMatch(/^projectName/);
    const unknownProject = await order({ projectName: 'no-such-project' });
    expect(unknownProject.status).toBe(404);
    expect(unknownProject.body.message).toMatch(/^projectName: no project/);
    expect((await order({ goodsId: 999_999_999 })).status).toBe(404);
    const off = await order({ goodsId: withdrawn.id });
    expect(off.status).toBe(409);
    expect(off.body.message).toMatch(/^goodsId: .*not on sale/);
    expect(await itemCount()).toBe(before);
    expect(await ticketsOf(buyer.uid, projectName)).toBe(100);
  });
});

describe('customGoods', () => {
  async function setUp(tickets = 100) {
    const owner = await merchantWithProject(deps);
    const goods = await goodsFor(deps, owner, { price: 4 });
    const user = randomUUID();
    const projectName = owner.project.project_name;
    await giveTickets(deps, { uid: user, projectName, level: 1 }, tickets);
    const body = { userId: user, quantity: 2, projectName, outerOrderId: `partner-${randomUUID()}` };
    const order = (b: object = body, token = owner.serverToken, goodsId = goods.id) =>
      call(app, 'POST', `${base}/account/vendor/goods/${goodsId}`, { token, body: b });
    return { owner, goods, user, projectName, body, order };
  }

  it('orders for a user, and answers a replay with the first order without taking again', async () => {
    const { owner, goods, user, projectName, body, order } = await setUp();
    const first = await order();
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      goodsId: goods.id,
      userId: user,
      quantity: 2,
      total: 8,
      outerOrderId: body.outerOrderId,
      merchant_id: owner.merchant.id,
      status: 1,
    });
    expect(await ticketsOf(user, projectName)).toBe(92);

    const before = await itemCount();
    const again = await order();
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(await ticketsOf(user, projectName)).toBe(92);
    expect(await itemCount()).toBe(before);
  });

  it("answers the contract's 400 {statusCode, message} naming outerOrderId when the id is reused with other contents", async () => {
    const { user, projectName, body, order, owner } = await setUp();
    expect((await order()).status).toBe(200);
    const other = await goodsFor(deps, owner);
    const before = await itemCount();
    for (const changed of [{ quantity: 3 }, { userId: randomUUID() }]) {
      const res = await order({ ...body, ...changed });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringMatching(/^outerOrderId: .*other contents/), error: 'goods.order_id_reused' });
    }
    expect((await order(body, owner.serverToken, other.id)).status).toBe(400);
    expect(await itemCount()).toBe(before);
    expect(await ticketsOf(user, projectName)).toBe(92);
  });

  it('makes one order and one debit of 20 simultaneous requests with one outerOrderId', async () => {
    const { user, projectName, body, order } = await setUp();
    // An earlier order makes the order id counter, so the count below sees only this order's items.
    expect((await order({ ...body, outerOrderId: `${body.outerOrderId}-earlier` })).status).toBe(200);
    const before = await itemCount();
    const results = await Promise.all(Array.from({ length: 20 }, () => order()));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(await ticketsOf(user, projectName)).toBe(84);
    // One order, its trace item, its claim and one ledger entry.
    expect(await itemCount()).toBe(before + 4);
  });

  it("refuses another merchant's server (403) and a short balance (409), writing nothing", async () => {
    const { body, order, goods } = await setUp(7);
    const stranger = await merchantWithProject(deps);
    // A first order (4 of the 7 tickets) leaves 3, short of the next one's 8.
    expect((await order({ ...body, quantity: 1, outerOrderId: `${body.outerOrderId}-first` })).status).toBe(200);
    const before = await itemCount();
    const foreign = await order({ ...body, projectName: goods.projectName }, stranger.serverToken);
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toMatch(/^goodsId/);
    const short = await order();
    expect(short.status).toBe(409);
    expect(short.body.message).toMatch(/^quantity/);
    // The order id counter exists since the first order, so a refused order (which took an id) adds no item.
    expect(await itemCount()).toBe(before);
  });

  it('customGoods_query and traceKey find the order for its merchant only, the same 404 for others', async () => {
    const { body, order, owner } = await setUp();
    const placed = (await order()).body.data;
    const stranger = await merchantWithProject(deps);
    const byOuter = (token: string, outerOrderId = body.outerOrderId) =>
      call(app, 'GET', `${base}/account/vendor/goods/query`, { token, query: { outerOrderId } });
    const byTrace = (token: string, key = placed.trace_key) => call(app, 'GET', `${base}/account/vendor/traceKey`, { token, query: { key } });

    expect((await byOuter(owner.serverToken)).body).toEqual({ data: placed, statusCode: 200, message: 'success', totalPage: 1 });
    expect((await byTrace(owner.serverToken)).body.data).toEqual(placed);

    const missing = [
      await byOuter(stranger.serverToken),
      await byOuter(owner.serverToken, 'never-sent'),
      await byTrace(stranger.serverToken),
      await byTrace(owner.serverToken, 'A'.repeat(22)),
    ];
    expect(missing.map((r) => r.status)).toEqual([404, 404, 404, 404]);
    expect(missing[2]!.body).toEqual(missing[3]!.body);
  });
});

describe('vendor_pay_query', () => {
  it("reads a bill's payment: its player and the project's merchant may, others get 404", async () => {
    const owner = await merchantWithProject(deps);
    const buyer = await player(deps);
    const order = await putPayOrder(deps, { userId: buyer.uid, projectName: owner.project.project_name, receiveAddress: owner.project.receive_address });
    const payer = Ed25519Keypair.generate().toSuiAddress();
    const stored = await storePaymentEvent(deps, {
      type: '0xabc::pay::PaymentEvent',
      txDigest: '8Fk4vEJ2WqgW1yWZLvRQeQPYQyC7wzRYVUkKmJ9Xz1Ab',
      eventSeq: '0',
      sender: payer,
      parsedJson: { bill_no: order.bill_no, amount: order.amount_base, from: payer, to: owner.project.receive_address },
    });
    const query = (token: string, billNo = order.bill_no) => call(app, 'GET', `${base}/wallet/vendor/pay`, { token, query: { billNo } });

    const mine = await query(buyer.token);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({ data: stored, statusCode: 200, message: 'success', totalPage: 1 });
    expect(mine.body.data).toMatchObject({ bill_no: order.bill_no, amount: '1500000000', fromer: payer, toer: owner.project.receive_address, event_type: 1 });
    expect((await query(owner.serverToken)).body.data).toEqual(stored);

    const unpaid = await putPayOrder(deps, { userId: buyer.uid, projectName: owner.project.project_name, receiveAddress: owner.project.receive_address });
    const refused = [
      await query((await player(deps)).token),
      await query((await merchantWithProject(deps)).serverToken),
      await query(buyer.token, unpaid.bill_no),
      await query(buyer.token, 'PO9999999999'),
    ];
    expect(refused.map((r) => r.status)).toEqual([404, 404, 404, 404]);
    expect(refused[0]!.body).toEqual({ statusCode: 404, message: expect.stringMatching(/^billNo/), error: 'access.not_found' });
  });

  it('reads a reward bill for the merchant that paid it only', async () => {
    const owner = await merchantWithProject(deps);
    const buyer = await player(deps);
    const billNo = `R-${randomUUID()}`;
    const paid = await call(app, 'POST', `${base}/wallet/vendor/reward`, {
      token: owner.serverToken,
      body: { billNo, userId: buyer.uid, projectName: owner.project.project_name, level: 1, amount: 3 },
    });
    expect(paid.status).toBe(200);
    const query = (token: string) => call(app, 'GET', `${base}/wallet/vendor/pay`, { token, query: { billNo } });
    expect((await query(owner.serverToken)).body.data).toEqual(paid.body.data);
    expect((await query(buyer.token)).status).toBe(404);
    expect((await query((await merchantWithProject(deps)).serverToken)).status).toBe(404);
  });
});

describe('vendor_reward', () => {
  it('credits the tickets and records a reward payout (event_type 2), once per bill number', async () => {
    const owner = await merchantWithProject(deps);
    const user = (await player(deps)).uid;
    const projectName = owner.project.project_name;
    const wallet = Ed25519Keypair.generate().toSuiAddress();
    const body = { billNo: `R-${randomUUID()}`, userId: user, projectName, level: 2, amount: 40, walletAddress: wallet };
    const reward = () => call(app, 'POST', `${base}/wallet/vendor/reward`, { token: owner.serverToken, body });

    const first = await reward();
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      id: expect.any(Number),
      bill_no: body.billNo,
      amount: '40',
      fromer: String(owner.merchant.id),
      toer: wallet,
      event_type: 2,
      cursor: { eventSeq: '0', txDigest: '' },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await ticketsOf(user, projectName, 2)).toBe(40);

    const before = await itemCount();
    const again = await reward();
    expect(again.text).toBe(first.text);
    expect(await ticketsOf(user, projectName, 2)).toBe(40);
    expect(await itemCount()).toBe(before);
  });

  it('credits once when 10 requests with one bill number arrive together', async () => {
    const owner = await merchantWithProject(deps);
    const { uid: user, address } = await player(deps);
    const projectName = owner.project.project_name;
    const body = { billNo: `R-${randomUUID()}`, userId: user, projectName, level: 1, amount: 5 };
    const results = await Promise.all(Array.from({ length: 10 }, () => call(app, 'POST', `${base}/wallet/vendor/reward`, { token: owner.serverToken, body })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(await ticketsOf(user, projectName)).toBe(5);
    // Without a wallet address in the request, the account's address is the recipient.
    expect(results[0]!.body.data.toer).toBe(address);
  });

  it("refuses a used bill number with other contents (409), another merchant's project (403) and writes nothing", async () => {
    const owner = await merchantWithProject(deps);
    const stranger = await merchantWithProject(deps);
    const user = (await player(deps)).uid;
    const projectName = owner.project.project_name;
    const body = { billNo: `R-${randomUUID()}`, userId: user, projectName, level: 1, amount: 5 };
    expect((await call(app, 'POST', `${base}/wallet/vendor/reward`, { token: owner.serverToken, body })).status).toBe(200);
    const before = await itemCount();

    const changed = await call(app, 'POST', `${base}/wallet/vendor/reward`, { token: owner.serverToken, body: { ...body, amount: 6 } });
    expect(changed.status).toBe(409);
    expect(changed.body).toEqual({ statusCode: 409, message: expect.stringMatching(/^billNo/), error: 'reward.bill_reused' });
    const otherMerchantSameBill = await call(app, 'POST', `${base}/wallet/vendor/reward`, {
      token: stranger.serverToken,
      body: { ...body, projectName: stranger.project.project_name },
    });
    expect(otherMerchantSameBill.status).toBe(409);
    const foreign = await call(app, 'POST', `${base}/wallet/vendor/reward`, { token: stranger.serverToken, body: { ...body, billNo: `R-${randomUUID()}` } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toMatch(/^projectName/);
    expect(await itemCount()).toBe(before);
    expect(await ticketsOf(user, projectName)).toBe(5);
  });

  it('a reward stored before fingerprintOf (its request the JSON of its values) still answers its retries', async () => {
    const owner = await merchantWithProject(deps);
    const user = (await player(deps)).uid;
    const body = { billNo: `R-${randomUUID()}`, userId: user, projectName: owner.project.project_name, level: 1, amount: 5 };
    const reward = (values: typeof body) => call(app, 'POST', `${base}/wallet/vendor/reward`, { token: owner.serverToken, body: values });
    const first = await reward(body);
    expect(first.status).toBe(200);
    const Key = rewardKey(body.billNo);
    const stored = (await deps.db.send(new GetCommand({ TableName: deps.table, Key, ConsistentRead: true }))).Item!;
    const earlier = JSON.stringify([stored.accountId, body.userId, body.projectName, body.level, body.amount, null]);
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key,
        UpdateExpression: 'SET #request = :earlier',
        ExpressionAttributeNames: { '#request': 'request' },
        ExpressionAttributeValues: { ':earlier': earlier },
      }),
    );

    expect((await reward(body)).text).toBe(first.text);
    expect((await reward({ ...body, amount: 6 })).status).toBe(409);
    expect(await ticketsOf(user, body.projectName)).toBe(5);
  });

  it('refuses a user id without an account (404) and writes nothing, so no value waits for whoever registers the id', async () => {
    const owner = await merchantWithProject(deps);
    const projectName = owner.project.project_name;
    const nobody = randomUUID();
    const before = await itemCount();
    for (const extra of [{}, { walletAddress: Ed25519Keypair.generate().toSuiAddress() }]) {
      const res = await call(app, 'POST', `${base}/wallet/vendor/reward`, {
        token: owner.serverToken,
        body: { billNo: `R-${randomUUID()}`, userId: nobody, projectName, level: 1, amount: 50, ...extra },
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, message: expect.stringMatching(/^userId: no account/), error: 'reward.no_account' });
    }
    expect(await itemCount()).toBe(before);
    expect(await ticketsOf(nobody, projectName)).toBe(0);
  });
});

describe('vendor/signature', () => {
  it("signs a pending order's payment request with the stage key so that Sui's secp256r1 verification accepts it", async () => {
    const owner = await merchantWithProject(deps);
    const buyer = await player(deps);
    const order = await putPayOrder(deps, {
      userId: buyer.uid,
      projectName: owner.project.project_name,
      receiveAddress: owner.project.receive_address,
      amountBase: '1500000000',
    });
    const res = await call(app, 'GET', `${base}/wallet/vendor/signature`, { token: buyer.token, query: { billNo: order.bill_no } });
    expect(res.status).toBe(200);
    const signed = res.body.data;
    const coinType = `${'0'.repeat(63)}2::sui::SUI`;
    expect(signed).toEqual({
      bill_no: order.bill_no,
      amount: '1.5',
      amount_base: '1500000000',
      recipient: owner.project.receive_address,
      coin_type: coinType,
      expires_at_ms: expect.any(Number),
      message: expect.stringMatching(/^[0-9a-f]+$/),
      signature: expect.any(String),
      public_key: expect.any(String),
      scheme: 'secp256r1-sha256',
    });
    expect(signed.expires_at_ms - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(signed.expires_at_ms - Date.now()).toBeLessThanOrEqual(10 * 60_000);

    // The message is the BCS of the Move struct, read back here with an independent definition.
    const message = Buffer.from(signed.message, 'hex');
    const PaymentRequest = bcs.struct('PaymentRequest', {
      bill_no: bcs.string(),
      amount: bcs.u64(),
      recipient: bcs.Address,
      coin_type: bcs.string(),
      expires_at_ms: bcs.u64(),
    });
    expect(PaymentRequest.parse(message)).toEqual({
      bill_no: order.bill_no,
      amount: '1500000000',
      recipient: owner.project.receive_address,
      coin_type: coinType,
      expires_at_ms: String(signed.expires_at_ms),
    });

    // The key is the stage's vendor key (never a token key), compressed; the signature checks with the Sui SDK's verifier and with node:crypto.
    const publicKey = new Secp256r1PublicKey(Buffer.from(signed.public_key, 'base64'));
    const signature = Buffer.from(signed.signature, 'base64');
    expect(signature).toHaveLength(64);
    expect(await publicKey.verify(message, signature)).toBe(true);
    const stageKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: deps.vendorKey.x, y: deps.vendorKey.y }, format: 'jwk' });
    expect(verify('sha256', message, { key: stageKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
    expect(await publicKey.verify(Buffer.concat([message, Buffer.from([0])]), signature)).toBe(false);
  });

  it('always gives low-s signatures (Sui refuses the high-s twin, which node and the SDK would accept)', async () => {
    const halfOrder = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n / 2n;
    // ECDSA's nonce is random, so about half of these would be high-s without normalisation.
    for (let i = 0; i < 16; i++) {
      const message = new TextEncoder().encode(`message ${i}`);
      const { signature, publicKey } = await deps.tokens.signBytes(message);
      expect(BigInt(`0x${Buffer.from(signature.subarray(32)).toString('hex')}`) <= halfOrder).toBe(true);
      expect(await new Secp256r1PublicKey(publicKey).verify(message, signature)).toBe(true);
    }
  });

  it("refuses another player's order and unknown bills (404), an order that is not pending (409)", async () => {
    const owner = await merchantWithProject(deps);
    const buyer = await player(deps);
    const fields = { userId: buyer.uid, projectName: owner.project.project_name, receiveAddress: owner.project.receive_address };
    const order = await putPayOrder(deps, fields);
    const paid = await putPayOrder(deps, { ...fields, status: 1 });
    const sign = (token: string, billNo: string) => call(app, 'GET', `${base}/wallet/vendor/signature`, { token, query: { billNo } });

    const foreign = await sign((await player(deps)).token, order.bill_no);
    expect(foreign.status).toBe(404);
    expect((await sign(buyer.token, 'PO9999999999')).status).toBe(404);
    const notPending = await sign(buyer.token, paid.bill_no);
    expect(notPending.status).toBe(409);
    expect(notPending.body).toEqual({ statusCode: 409, message: expect.stringMatching(/^billNo: .*not pending/), error: 'order.not_pending' });
  });
});

describe('transactions colliding with others', () => {
  // DynamoDB Local runs transactions one at a time; DynamoDB cancels one that meets another on an item.
  const collision = Object.assign(new Error('Transaction cancelled'), {
    name: 'TransactionCanceledException',
    CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
  });
  const flakyDb = (failures: number) => {
    let calls = 0;
    const send = async () => {
      if (++calls <= failures) throw collision;
      return {};
    };
    return { db: { send } as unknown as TestDeps['db'], calls: () => calls };
  };

  it('are run again, and given up on with a 409 that says to retry', async () => {
    const recovering = flakyDb(2);
    expect(await transactOrFailedConditions(recovering, [], 'userId: changed concurrently; retry')).toEqual([]);
    expect(recovering.calls()).toBe(3);
    await expect(transactOrFailedConditions(flakyDb(99), [], 'userId: changed concurrently; retry')).rejects.toMatchObject({
      kind: 'Conflict',
      message: 'userId: changed concurrently; retry',
    });
  });
});

const allOps = [...Object.values(innerGoodsOps), ...Object.values(payGoodsOps)] as OperationSpec[];
const allKinds: TokenKind[] = ['merchant', 'server', 'platform', 'game', 'hero', 'store'];
/** A concrete path of an operation (a goods id in place of the parameter). */
const pathOf = (op: OperationSpec) => `${base}${op.path.replace(':goodsId', '1')}`;

describe('auth', () => {
  it.each(allOps.map((op) => [op.name, op] as const))('%s: no token and tokens of other kinds are 401', async (_name, op) => {
    const kinds = op.auth === 'open' ? [] : op.auth.tokens;
    expect((await call(app, op.method, pathOf(op))).status).toBe(401);
    for (const kind of allKinds.filter((k) => !kinds.includes(k))) {
      const { token } = await deps.tokens.issue(kind, randomUUID(), { merchant_id: 1, role: 'merchant' });
      const res = await call(app, op.method, pathOf(op), { token });
      expect(res.status, `${kind} token`).toBe(401);
      expect(res.body.message).toMatch(/^token is not valid here/);
    }
  });
});

describe('bad input: 400 naming the field, nothing written', () => {
  const uid = randomUUID();
  const order = { userId: uid, goodsId: 1, quantity: 1, projectName: 'p' };
  const custom = { userId: uid, quantity: 1, projectName: 'p', outerOrderId: 'o-1' };
  const reward = { billNo: 'R-1', userId: uid, projectName: 'p', level: 1, amount: 1 };
  const cases: { op: string; path?: string; body?: unknown; query?: Record<string, string>; field: RegExp }[] = [
    { op: 'createOrder', body: { ...order, goodsId: 'one' }, field: /^body\.goodsId/ },
    { op: 'createOrder', body: { ...order, quantity: 0 }, field: /^body\.quantity/ },
    { op: 'createOrder', body: { ...order, quantity: 1.5 }, field: /^body\.quantity/ },
    { op: 'createOrder', body: { ...order, userId: 'someone' }, field: /^body\.userId/ },
    { op: 'createOrder', body: '{"userId": ', field: /^body: must be valid JSON/ },
    { op: 'customGoods', body: { ...custom, outerOrderId: '' }, field: /^body\.outerOrderId/ },
    { op: 'customGoods', body: { ...custom, quantity: -2 }, field: /^body\.quantity/ },
    { op: 'customGoods', body: { ...custom, projectName: 'bad name!' }, field: /^body\.projectName/ },
    { op: 'customGoods', path: '/account/vendor/goods/abc', body: custom, field: /^path\.goodsId/ },
    { op: 'customGoods', path: '/account/vendor/goods/0', body: custom, field: /^path\.goodsId/ },
    { op: 'traceKey', query: {}, field: /^query\.key/ },
    { op: 'traceKey', query: { key: 'short' }, field: /^query\.key/ },
    { op: 'customGoods_query', query: { outerOrderId: 'x'.repeat(129) }, field: /^query\.outerOrderId/ },
    { op: 'vendor_pay_query', query: {}, field: /^query\.billNo/ },
    { op: 'vendor_pay_query', query: { billNo: 'PO 1' }, field: /^query\.billNo/ },
    { op: 'vendor_reward', body: { ...reward, amount: 0 }, field: /^body\.amount/ },
    { op: 'vendor_reward', body: { ...reward, billNo: 'PO0000000001' }, field: /^body\.billNo/ },
    { op: 'vendor_reward', body: { ...reward, walletAddress: '0x12' }, field: /^body\.walletAddress/ },
    { op: 'vendor_reward', body: { ...reward, level: -1 }, field: /^body\.level/ },
    { op: 'vendor/signature', query: { billNo: 'R-1' }, field: /^query\.billNo/ },
    { op: 'goods_create', body: { name: 'x', projectName: 'p', level: 1, price: 0 }, field: /^body\.price/ },
    { op: 'goods_create', body: { name: ' ', projectName: 'p', level: 1, price: 1 }, field: /^body\.name/ },
    { op: 'goods_create', body: { name: 'x', projectName: 'p', level: 1, price: 1, status: 3 }, field: /^body\.status/ },
    { op: 'goods_list', query: { pageSize: '101' }, field: /^query\.pageSize/ },
  ];

  it('covers every operation that takes input', () => {
    expect(new Set(cases.map((c) => c.op))).toEqual(new Set(allOps.filter((op) => op.body || op.query || op.params).map((op) => op.name)));
  });

  it.each(cases.map((c) => [`${c.op} ${c.path ?? ''} ${JSON.stringify(c.body ?? c.query)}`, c] as const))('%s', async (_label, c) => {
    const op = allOps.find((o) => o.name === c.op)!;
    const kind = op.auth === 'open' ? 'platform' : op.auth.tokens[0]!;
    const { token } = await deps.tokens.issue(kind, kind === 'platform' ? uid : randomUUID(), { merchant_id: 1, role: 'merchant' });
    const before = await itemCount();
    const res = await call(app, op.method, c.path ? `${base}${c.path}` : pathOf(op), { token, body: c.body, query: c.query });
    expect(res.status).toBe(400);
    const message = expect.stringMatching(c.field);
    const error = c.field.source.includes('must be valid JSON') ? 'body.malformed' : 'input.invalid';
    expect(res.body).toEqual(op.path.startsWith('/merchant') ? { code: 400, message, data: null, error } : { statusCode: 400, message, error });
    expect(await itemCount()).toBe(before);
  });
});
