import { afterAll, describe, expect, it } from 'vitest';
import { indexEvents } from '../core/chain/indexer.js';
import { paymentHandlers } from '../core/payments/indexer-handlers.js';
import { paymentUri, receiptType } from '../core/payments/payment-kit.js';
import { createChain, parseChainConfig } from '../core/chain/source.js';
import type { ChainConfig } from '../core/chain/types.js';
import { balanceOf } from '../core/tickets/balances.js';
import { createPayApp } from '../functions/pay.js';
import { createTestDeps, itemCount, itemsOfType } from './support/deps.js';
import { call } from './support/http.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { KIT_PACKAGE, payThroughKit, RECEIPT_TYPE, receiptEvent } from './support/payment-kit.js';
import { playerWithTokens, projectWithLevel } from './support/payments.js';
import { startSuiGraphQL } from './support/sui-graphql.js';
import { ChainScript, PAYMENT_TYPE, randomAddress, startSuiNode } from './support/sui-node.js';

/**
 * Payments through the Sui Payment Kit (core/payments/payment-kit.ts): getDepositaddress answers
 * the order's payment URI; a wallet pays it; the registry's PaymentReceipt, read by the indexer or by
 * orderComplete from the transaction, completes the order under the same checks and exactly once.
 */

const base = '/v2-testing/account';
const document = servedDocument('/v2-testing');
const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

const kitConfig = (url: string, kind: 'jsonrpc' | 'graphql', extra: Partial<ChainConfig> = {}): ChainConfig => ({
  kind,
  url,
  paymentKit: { packageId: KIT_PACKAGE, registry: 'default-payment-registry' },
  ...extra,
});

/** A stage reading a loopback node of `kind` with Payment Kit on, a shop, a player, and their helpers. */
async function stage(kind: 'jsonrpc' | 'graphql', extra: Partial<ChainConfig> = {}) {
  const script = new ChainScript();
  const server = kind === 'jsonrpc' ? await startSuiNode(script) : await startSuiGraphQL(script);
  stops.push(server.stop);
  const deps = await createTestDeps();
  deps.chain = createChain(kitConfig(server.url, kind, extra), { timeoutMs: 2000 });
  const app = createPayApp(deps);
  const shop = await projectWithLevel(deps);
  const player = await playerWithTokens(deps);
  const newOrder = async () => {
    const res = await call(app, 'POST', `${base}/user/rechargeOrder`, {
      token: player.platform,
      body: { userId: player.uid, project: shop.project.project_name, priceId: shop.level.priceId, prevId: -1, level: 1, amount: 1_500_000_000 },
    });
    expect(res.status).toBe(200);
    return res.body as { id: number; bill_no: string };
  };
  const where = (orderId: number) =>
    call(app, 'GET', `${base}/user/getDepositaddress`, { token: player.platform, query: { project: shop.project.project_name, orderId } });
  const complete = (orderId: number, transactionId: string) =>
    call(app, 'POST', `${base}/user/orderComplete`, { token: player.platform, body: { orderId, transactionId } });
  /** The wallet pays the order's URI as it reads it. */
  const payUri = (uri: string, overrides: { amount?: string; receiver?: string; coinType?: string; registry?: string } = {}) => {
    const params = new URL(uri).searchParams;
    return payThroughKit(script, {
      nonce: params.get('nonce')!,
      amount: overrides.amount ?? params.get('amount')!,
      receiver: overrides.receiver ?? params.get('receiver')!,
      coinType: overrides.coinType ?? params.get('coinType')!,
      sender: player.address,
      ...(overrides.registry ? { registry: overrides.registry } : {}),
    });
  };
  const tickets = () => balanceOf(deps, { uid: player.uid, projectName: shop.project.project_name, level: 1 });
  const index = () => indexEvents(deps, { handlers: paymentHandlers(deps), sleep: async () => {} });
  return { script, deps, app, shop, player, newOrder, where, complete, payUri, tickets, index };
}

describe('configuration', () => {
  const url = 'https://graphql.testnet.sui.io/graphql';

  it('takes Payment Kit alone, the registry by name (the default registry unless told) or by object id', () => {
    expect(parseChainConfig(JSON.stringify({ url, paymentKit: { packageId: KIT_PACKAGE } }))).toEqual({
      kind: 'graphql',
      url,
      paymentKit: { packageId: KIT_PACKAGE, registry: 'default-payment-registry' },
    });
    const config = parseChainConfig(JSON.stringify({ url, paymentEventType: '0xfeed::pay::PaymentEvent', paymentKit: { packageId: '0xAB', registry: '0xC' } }));
    expect(config?.paymentKit).toEqual({ packageId: `0x${'0'.repeat(62)}ab`, registry: `0x${'0'.repeat(63)}c` });
    expect(config?.paymentEventType).toBe(`0x${'0'.repeat(60)}feed::pay::PaymentEvent`);
    expect(receiptType(config!.paymentKit!)).toBe(`0x${'0'.repeat(62)}ab::payment_kit::PaymentReceipt`);
  });

  it.each([
    [{ url }, 'chain config: paymentEventType or paymentKit is required'],
    [{ url, paymentKit: 'yes' }, 'chain config: paymentKit must be an object'],
    [{ url, paymentKit: { packageId: 'payment_kit' } }, 'chain config: paymentKit.packageId must be the Payment Kit package id (0x…)'],
    [{ url, paymentKit: { packageId: KIT_PACKAGE, registry: 'My Registry' } }, /^chain config: paymentKit\.registry must be/],
    [{ url, paymentKit: { packageId: KIT_PACKAGE, registry: '-ab' } }, /^chain config: paymentKit\.registry must be/],
  ])('refuses %j naming the field', (setting, message) => {
    expect(() => parseChainConfig(JSON.stringify(setting))).toThrow(message);
  });
});

describe('the payment URI', () => {
  it("is the standard's: sui:pay with receiver, amount, coinType, nonce and registry, query-encoded", () => {
    const receiver = `0x${'12'.repeat(32)}`;
    const uri = paymentUri({
      receiver,
      amount: 18_446_744_073_709_551_615n,
      coinType: '0x2::sui::SUI',
      nonce: 'PO0000000042',
      registry: 'default-payment-registry',
    });
    expect(uri).toBe(
      `sui:pay?receiver=${receiver}&amount=18446744073709551615&coinType=0x2%3A%3Asui%3A%3ASUI&nonce=PO0000000042&registry=default-payment-registry`,
    );
    const parsed = new URL(uri);
    expect(parsed.protocol).toBe('sui:');
    expect(parsed.pathname).toBe('pay');
    expect(Object.fromEntries(parsed.searchParams)).toEqual({
      receiver,
      amount: '18446744073709551615',
      coinType: '0x2::sui::SUI',
      nonce: 'PO0000000042',
      registry: 'default-payment-registry',
    });
  });

  it('refuses what the Move code would abort on: a zero amount, an empty or over-long nonce', () => {
    const params = { receiver: randomAddress(), amount: 1n, coinType: '0x2::sui::SUI', nonce: 'x', registry: 'default-payment-registry' };
    expect(() => paymentUri({ ...params, amount: 0n })).toThrow('the amount must be positive');
    expect(() => paymentUri({ ...params, nonce: '' })).toThrow('the nonce must be 1-36 characters');
    expect(() => paymentUri({ ...params, nonce: 'n'.repeat(37) })).toThrow('the nonce must be 1-36 characters');
    expect(paymentUri({ ...params, nonce: 'n'.repeat(36) })).toContain(`nonce=${'n'.repeat(36)}`);
  });
});

describe.each(['jsonrpc', 'graphql'] as const)('%s: paying an order through Payment Kit', (kind) => {
  it("getDepositaddress answers the pending order's URI, in the documented shape; none once the order is paid", async () => {
    const { shop, newOrder, where, payUri, complete } = await stage(kind);
    const order = await newOrder();
    const res = await where(order.id);
    expect(res.status).toBe(200);
    expect(documentErrors(document, '/account/user/getDepositaddress', 'get', 200, res.body)).toEqual([]);
    const uri = res.body.data.order.payment_uri as string;
    expect(uri).toBe(
      `sui:pay?receiver=${shop.receiveAddress}&amount=1500000000&coinType=0x2%3A%3Asui%3A%3ASUI&nonce=${order.bill_no}&registry=default-payment-registry`,
    );
    const paid = payUri(uri);
    expect((await complete(order.id, paid.txDigest)).status).toBe(200);
    expect((await where(order.id)).body.data.order).toMatchObject({ status: 1, payment_uri: null });
  });

  it('the indexer stores the receipt that pays the project, and orderComplete completes the order with it, once', async () => {
    const { deps, script, player, shop, newOrder, where, complete, payUri, tickets, index } = await stage(kind);
    const order = await newOrder();
    const paid = payUri((await where(order.id)).body.data.order.payment_uri);
    await index();
    const [stored] = (await itemsOfType(deps, 'payment_event')).filter((item) => item.bill_no === order.bill_no);
    expect(stored).toMatchObject({
      bill_no: order.bill_no,
      amount: '1500000000',
      fromer: player.address,
      toer: shop.receiveAddress,
      event_type: 1,
      cursor: { txDigest: paid.txDigest, eventSeq: '0' },
      coin_type: `0x${'0'.repeat(63)}2::sui::SUI`,
      coin_from: 'event',
      matched: true,
      move_type: RECEIPT_TYPE,
      payment_kit_registry: (paid.parsedJson.payment_type as { fields: { pos0: string } }).fields.pos0,
    });

    const done = await complete(order.id, paid.txDigest);
    expect(done.status).toBe(200);
    expect(await tickets()).toBe(100);
    const again = await complete(order.id, paid.txDigest);
    expect(again.status).toBe(200);
    expect(await tickets()).toBe(100);
    // The indexer passing again stores nothing twice.
    const before = await itemCount(deps);
    await index();
    expect(await itemCount(deps)).toBe(before);
    expect(script.events).toHaveLength(1);
  });

  it("passes over everyone else's receipts: the package's stream is every merchant's", async () => {
    const { deps, script, newOrder, where, payUri, index } = await stage(kind);
    const order = await newOrder();
    const uri = (await where(order.id)).body.data.order.payment_uri;
    // Another platform's payments: same package, its own receivers and nonces (one even looks like our bill).
    script.add(
      receiptEvent({ nonce: 'ORDER-991', amount: '42', receiver: randomAddress() }),
      receiptEvent({ nonce: order.bill_no, amount: '1500000000', receiver: randomAddress() }),
      receiptEvent({ nonce: 'PO9999999999', amount: '7', receiver: randomAddress(), registry: 'ephemeral' }),
    );
    const before = await itemCount(deps);
    const summary = await index();
    expect(summary[RECEIPT_TYPE]).toMatchObject({ events: 3, stopped: 'caught-up' });
    expect(await itemCount(deps)).toBe(before + 1); // the cursor, nothing else
    payUri(uri);
    await index();
    expect((await itemsOfType(deps, 'payment_event')).map((item) => item.bill_no)).toEqual([order.bill_no]);
  });

  it('orderComplete reads the receipt from the transaction when the indexer has not: ephemeral and own-registry receipts pay too', async () => {
    const { deps, newOrder, where, complete, payUri, tickets } = await stage(kind);
    const ownRegistry = randomAddress();
    for (const registry of ['ephemeral', ownRegistry]) {
      const order = await newOrder();
      const paid = payUri((await where(order.id)).body.data.order.payment_uri, { registry });
      const res = await complete(order.id, paid.txDigest);
      expect(res.status).toBe(200);
      const [stored] = (await itemsOfType(deps, 'payment_event')).filter((item) => item.bill_no === order.bill_no);
      expect(stored).toMatchObject({ matched: true, payment_kit_registry: registry });
    }
    expect(await tickets()).toBe(200);
  });

  it('ten concurrent orderComplete calls with the receipt credit once', async () => {
    const { newOrder, where, complete, payUri, tickets } = await stage(kind);
    const order = await newOrder();
    const paid = payUri((await where(order.id)).body.data.order.payment_uri);
    const answers = await Promise.all(Array.from({ length: 10 }, () => complete(order.id, paid.txDigest)));
    expect(answers.map((a) => `${a.status} ${a.body.message ?? ''}`)).toEqual(Array(10).fill('200 '));
    expect(await tickets()).toBe(100);
  });

  it('a receipt of another amount, coin or receiver is 409 under the same checks, kept as a stranded payment', async () => {
    const { deps, newOrder, where, complete, payUri, tickets } = await stage(kind);
    const FAKE = `0x${'fa'.repeat(32)}::fake::FAKE`;
    const cases = [
      { overrides: { amount: '1499999999' }, message: /^transactionId: it paid 1499999999 base units; order \d+ costs 1500000000$/, reason: 'amount' },
      { overrides: { coinType: FAKE }, message: new RegExp(`^transactionId: it paid in ${FAKE}; order \\d+ is paid in 0x2::sui::SUI$`), reason: 'coin' },
    ];
    for (const { overrides, message, reason } of cases) {
      const order = await newOrder();
      const paid = payUri((await where(order.id)).body.data.order.payment_uri, overrides);
      const res = await complete(order.id, paid.txDigest);
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(message);
      expect((await itemsOfType(deps, 'stranded_payment')).filter((item) => item.bill_no === order.bill_no)).toEqual([
        expect.objectContaining({ reason, status: 0 }),
      ]);
    }
    // Paid to someone else with our bill number: not ours, so not stored; the transaction pays no bill of ours.
    const order = await newOrder();
    const elsewhere = payUri((await where(order.id)).body.data.order.payment_uri, { receiver: randomAddress() });
    const before = await itemCount(deps);
    const res = await complete(order.id, elsewhere.txDigest);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(`transactionId: no payment found in transaction ${elsewhere.txDigest}`);
    expect(await itemCount(deps)).toBe(before);
    expect(await tickets()).toBe(0);
  });
});

describe('a stage with its own contract and Payment Kit', () => {
  it('indexes both event types; each pays its order', async () => {
    const { script, deps, shop, player, newOrder, where, complete, payUri, tickets, index } = await stage('graphql', { paymentEventType: PAYMENT_TYPE });
    const byKit = await newOrder();
    const kitPaid = payUri((await where(byKit.id)).body.data.order.payment_uri);
    const byContract = await newOrder();
    const contractPaid = script.pay({
      billNo: byContract.bill_no,
      amount: '1500000000',
      from: player.address,
      to: shop.receiveAddress,
      coinType: '0x2::sui::SUI',
    });
    const summary = await index();
    expect(Object.keys(summary).sort()).toEqual([`0x${'ab'.repeat(32)}::pay::PaymentEvent`, RECEIPT_TYPE].sort());
    expect((await itemsOfType(deps, 'payment_event')).filter((item) => item.matched === true)).toHaveLength(2);
    expect((await complete(byKit.id, kitPaid.txDigest)).status).toBe(200);
    expect((await complete(byContract.id, contractPaid.txDigest)).status).toBe(200);
    expect(await tickets()).toBe(200);
  });

  it('a stage without Payment Kit answers payment_uri null', async () => {
    const deps = await createTestDeps();
    const app = createPayApp(deps);
    const shop = await projectWithLevel(deps);
    const player = await playerWithTokens(deps);
    const order = await call(app, 'POST', `${base}/user/rechargeOrder`, {
      token: player.platform,
      body: { userId: player.uid, project: shop.project.project_name, priceId: shop.level.priceId, prevId: -1, level: 1, amount: 1_500_000_000 },
    });
    const res = await call(app, 'GET', `${base}/user/getDepositaddress`, { token: player.platform, query: { project: shop.project.project_name } });
    expect(res.body.data.order).toMatchObject({ id: order.body.id, payment_uri: null });
    expect(documentErrors(document, '/account/user/getDepositaddress', 'get', 200, res.body)).toEqual([]);
  });
});
