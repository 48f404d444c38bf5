import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayApp } from '../functions/pay.js';
import { indexEvents } from '../core/chain/indexer.js';
import { paymentHandlers } from '../core/payments/indexer-handlers.js';
import { storePaymentEvent } from '../core/payments/chain-payments.js';
import { createChain } from '../core/chain/source.js';
import type { ChainEvent } from '../core/chain/types.js';
import { balanceOf } from '../core/tickets/balances.js';
import { call } from './support/http.js';
import { createTestDeps, itemCount, itemsOfType, type TestDeps } from './support/deps.js';
import { startSuiGraphQL } from './support/sui-graphql.js';
import { ChainScript, PAYMENT_TYPE as SCRIPT_PAYMENT_TYPE, startSuiNode } from './support/sui-node.js';
import { playerWithTokens, projectWithLevel, randomDigest } from './support/payments.js';
import { mismatches, payOrder, accountRecord, pagedEnvelope } from './contract/contract-shapes.js';

let deps: TestDeps;
let app: ReturnType<typeof createPayApp>;
const base = '/v2-testing/account';
const PAYMENT_TYPE = '0xfeed::pay::PaymentEvent';
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  deps = await createTestDeps();
  app = createPayApp(deps);
});

async function shopAndPlayer() {
  const shop = await projectWithLevel(deps);
  const player = await playerWithTokens(deps);
  const orderBody = (extra: Record<string, unknown> = {}) => ({
    userId: player.uid,
    project: shop.project.project_name,
    priceId: shop.level.priceId,
    prevId: -1,
    level: 1,
    amount: 1_500_000_000,
    ...extra,
  });
  const recharge = (extra: Record<string, unknown> = {}) => call(app, 'POST', `${base}/user/rechargeOrder`, { token: player.platform, body: orderBody(extra) });
  return { shop, player, recharge };
}

/** Records a payment as the chain indexer would have (the contract emitting the coin type, SUI unless told). */
async function paid(order: { bill_no: string }, from: string, to: string, amount = '1500000000', digest = randomDigest(), coinType = '0x2::sui::SUI') {
  const event: ChainEvent = {
    type: PAYMENT_TYPE,
    txDigest: digest,
    eventSeq: '0',
    sender: from,
    parsedJson: { bill_no: order.bill_no, amount, from, to, coin_type: coinType },
  };
  await storePaymentEvent(deps, event);
  return digest;
}

describe('projects and levels', () => {
  it('lists projects on sale and their levels with the price as decimal text', async () => {
    const { shop } = await shopAndPlayer();
    const projects = await call(app, 'GET', `${base}/user/project`);
    expect(projects.body.data.map((p: { project_name: string }) => p.project_name)).toContain(shop.project.project_name);
    const levels = await call(app, 'GET', `${base}/user/project/level`, { query: { project: shop.project.project_name } });
    expect(levels.body.data).toEqual([expect.objectContaining({ level: 1, amount: '1.5', precison: 9, tickets: 100, priceId: shop.level.priceId })]);
  });
});

describe('rechargeOrder', () => {
  it('creates a pending order in the compatibility contract shape, amount as decimal text', async () => {
    const { shop, player, recharge } = await shopAndPlayer();
    const res = await recharge();
    expect(res.status).toBe(200);
    expect(mismatches(res.body, payOrder)).toEqual([]);
    expect(res.body).toMatchObject({
      amount: '1.5',
      precison: 9,
      status: 0,
      tx_type: 1,
      deposit_id: null,
      user_id: player.uid,
      wallet_address: player.address,
      project_id: shop.project.project_id,
      level: 1,
    });
    const where = await call(app, 'GET', `${base}/user/getDepositaddress`, { token: player.platform, query: { project: shop.project.project_name } });
    expect(where.body.data).toMatchObject({
      receive_address: shop.receiveAddress,
      coin_type: '0x2::sui::SUI',
      order: { id: res.body.id, bill_no: res.body.bill_no, amount: '1.5', status: 0 },
    });
  });

  it('replaces a pending order named by prevId in the same transaction', async () => {
    const { shop, player, recharge } = await shopAndPlayer();
    const first = (await recharge()).body;
    const second = await recharge({ prevId: first.id });
    expect(second.status).toBe(200);
    const statusOf = async (orderId: number) =>
      (await call(app, 'GET', `${base}/user/getDepositaddress`, { token: player.platform, query: { project: shop.project.project_name, orderId } })).body.data
        .order.status;
    expect(await statusOf(first.id)).toBe(2);
    expect(await statusOf(second.body.id)).toBe(0);
    const again = await recharge({ prevId: first.id });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/^prevId/);
  });

  it('refuses a changed price, a wrong priceId, another user, unknown projects and foreign prevIds, writing nothing', async () => {
    const { recharge, shop } = await shopAndPlayer();
    const other = await shopAndPlayer();
    const foreign = (await other.recharge()).body;
    const before = await itemCount(deps);
    expect((await recharge({ amount: 1_000_000_000 })).status).toBe(409);
    expect((await recharge({ priceId: shop.level.priceId + 1000 })).status).toBe(409);
    expect((await recharge({ userId: other.player.uid })).status).toBe(403);
    expect((await recharge({ project: 'no-such-project' })).status).toBe(404);
    expect((await recharge({ level: 7 })).status).toBe(404);
    const prev = await recharge({ prevId: foreign.id });
    expect(prev.status).toBe(404);
    expect(prev.body.message).toMatch(/^prevId/);
    // Counters may move (ids are unique, not dense); no order or other item is written.
    expect(await itemCount(deps)).toBe(before);
  });
});

describe('orderComplete', () => {
  it('completes a paid order once: tickets credited, order paid, the account record answered', async () => {
    const { shop, player, recharge } = await shopAndPlayer();
    const order = (await recharge()).body;
    const digest = await paid(order, player.address, shop.receiveAddress);
    const complete = () => call(app, 'POST', `${base}/user/orderComplete`, { token: player.platform, body: { orderId: order.id, transactionId: digest } });
    const res = await complete();
    expect(res.status).toBe(200);
    expect(mismatches(res.body, accountRecord)).toEqual([]);
    expect(res.body).toMatchObject({ uid: player.uid, wallet_address: player.address, private_key: '' });
    const target = { uid: player.uid, projectName: shop.project.project_name, level: 1 };
    expect(await balanceOf(deps, target)).toBe(100);

    const again = await complete();
    expect(again.body).toEqual(res.body);
    expect(await balanceOf(deps, target)).toBe(100);

    const coins = await call(app, 'GET', `${base}/game/pay/coins`, { token: player.platform });
    expect(mismatches(coins.body, pagedEnvelope)).toEqual([]);
    expect(coins.body.data).toEqual([expect.objectContaining({ id: order.id, status: 1, project_name: shop.project.project_name, amount: '1.5' })]);
    for (const element of coins.body.data) expect(mismatches(element, { ...payOrder, project_name: 'string' })).toEqual([]);
    expect(coins.body.data[0].deposit_id).toEqual(expect.any(Number));

    const deposits = await call(app, 'GET', `${base}/user/deposit`, { token: player.platform });
    expect(deposits.body.data).toEqual([
      { payment: expect.objectContaining({ bill_no: order.bill_no, fromer: player.address }), order: expect.objectContaining({ id: order.id, status: 1 }) },
    ]);
  });

  it('credits once when 50 identical calls race', async () => {
    const { shop, player, recharge } = await shopAndPlayer();
    const order = (await recharge()).body;
    const digest = await paid(order, player.address, shop.receiveAddress);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        call(app, 'POST', `${base}/user/orderComplete`, { token: player.platform, body: { orderId: order.id, transactionId: digest } }),
      ),
    );
    expect(results.filter((r) => r.status !== 200).map((r) => r.body)).toEqual([]);
    expect(await balanceOf(deps, { uid: player.uid, projectName: shop.project.project_name, level: 1 })).toBe(100);
  });

  it('refuses a transaction used by another order, paying another bill, amount or address, or unknown', async () => {
    const { shop, player, recharge } = await shopAndPlayer();
    const first = (await recharge()).body;
    const second = (await recharge()).body;
    const digest = await paid(first, player.address, shop.receiveAddress);
    const complete = (orderId: number, transactionId: string) =>
      call(app, 'POST', `${base}/user/orderComplete`, { token: player.platform, body: { orderId, transactionId } });
    expect((await complete(first.id, digest)).status).toBe(200);
    const reuse = await complete(second.id, digest);
    expect(reuse.status).toBe(409);
    expect(reuse.body.message).toMatch(/^transactionId/);

    const cheap = await paid(second, player.address, shop.receiveAddress, '1499999999');
    expect((await complete(second.id, cheap)).status).toBe(409);
    const elsewhere = await paid(second, player.address, player.address);
    expect((await complete(second.id, elsewhere)).status).toBe(409);
    const unknown = await complete(second.id, randomDigest());
    expect(unknown.status).toBe(404);
    const otherPlayer = await playerWithTokens(deps);
    const notMine = await call(app, 'POST', `${base}/user/orderComplete`, { token: otherPlayer.platform, body: { orderId: second.id, transactionId: digest } });
    expect(notMine.status).toBe(404);
    expect(await balanceOf(deps, { uid: player.uid, projectName: shop.project.project_name, level: 1 })).toBe(100);
  });
});

describe('payment coin type: an order is never completed by another coin', () => {
  const FAKE = `0x${'fa'.repeat(32)}::fake::FAKE`;

  /** A pay app on its own table whose stage reads a loopback node of `kind`, with a shop, a player and an order. */
  async function onChain(kind: 'jsonrpc' | 'graphql') {
    const script = new ChainScript();
    const server = kind === 'jsonrpc' ? await startSuiNode(script) : await startSuiGraphQL(script);
    stops.push(server.stop);
    const chainDeps = await createTestDeps();
    chainDeps.chain = createChain({ kind, url: server.url, paymentEventType: SCRIPT_PAYMENT_TYPE }, { timeoutMs: 2000 });
    const chainApp = createPayApp(chainDeps);
    const shop = await projectWithLevel(chainDeps);
    const player = await playerWithTokens(chainDeps);
    const newOrder = async () =>
      (
        await call(chainApp, 'POST', `${base}/user/rechargeOrder`, {
          token: player.platform,
          body: { userId: player.uid, project: shop.project.project_name, priceId: shop.level.priceId, prevId: -1, level: 1, amount: 1_500_000_000 },
        })
      ).body as { id: number; bill_no: string };
    const complete = (orderId: number, transactionId: string) =>
      call(chainApp, 'POST', `${base}/user/orderComplete`, { token: player.platform, body: { orderId, transactionId } });
    const pay = (order: { bill_no: string }, coinType: string, emit: 'string' | 'type_name' | false, extra = {}) =>
      script.pay({ billNo: order.bill_no, amount: '1500000000', from: player.address, to: shop.receiveAddress, coinType, emit, ...extra });
    const tickets = () => balanceOf(chainDeps, { uid: player.uid, projectName: shop.project.project_name, level: 1 });
    const statusOf = async (orderId: number) =>
      (await call(chainApp, 'GET', `${base}/user/getDepositaddress`, { token: player.platform, query: { project: shop.project.project_name, orderId } })).body
        .data.order.status;
    return { chainDeps, shop, player, newOrder, complete, pay, tickets, statusOf };
  }

  afterAll(async () => {
    await Promise.all(stops.splice(0).map((stop) => stop()));
  });

  it.each(['jsonrpc', 'graphql'] as const)('%s: an order for SUI paid in another coin is 409 naming the coin, and writes nothing', async (kind) => {
    const { chainDeps, newOrder, complete, pay, tickets, statusOf } = await onChain(kind);

    // The contract names the coin in the event; the indexer has stored the payment.
    const order = await newOrder();
    const named = pay(order, FAKE, 'type_name');
    await indexEvents(chainDeps, { handlers: paymentHandlers(chainDeps), sleep: async () => {} });
    const before = await itemCount(chainDeps);
    const refused = await complete(order.id, named.txDigest);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`transactionId: it paid in ${FAKE}; order ${order.id} is paid in 0x2::sui::SUI`);
    expect(await itemCount(chainDeps)).toBe(before);
    expect(await tickets()).toBe(0);
    expect(await statusOf(order.id)).toBe(0);

    // The contract does not name the coin: the transaction's balance changes do (read by orderComplete itself).
    const silentOrder = await newOrder();
    const silent = pay(silentOrder, FAKE, false);
    const refusedToo = await complete(silentOrder.id, silent.txDigest);
    expect(refusedToo.status).toBe(409);
    expect(refusedToo.body.message).toMatch(new RegExp(`^transactionId: it paid in ${FAKE}; order ${silentOrder.id} is paid in 0x2::sui::SUI$`));
    expect(await tickets()).toBe(0);
    expect(await statusOf(silentOrder.id)).toBe(0);
    // What it wrote is the chain's record, kept for the merchant: the payment and its stranded record.
    expect((await itemsOfType(chainDeps, 'stranded_payment')).filter((item) => item.bill_no === silentOrder.bill_no)).toEqual([
      expect.objectContaining({ reason: 'coin', coin_type: FAKE, status: 0 }),
    ]);
    expect(await itemsOfType(chainDeps, 'tx_use')).toEqual([]);

    // The same flows in the order's coin complete it: the refusals above were the coin's.
    const suiOrder = await newOrder();
    const good = pay(suiOrder, '0x2::sui::SUI', false);
    const ok = await complete(suiOrder.id, good.txDigest);
    expect(ok.status).toBe(200);
    expect(await tickets()).toBe(100);
  });

  it('a transaction that pays the project both coins is 409: the coin could not be verified', async () => {
    const { newOrder, complete, pay, tickets, statusOf, shop } = await onChain('jsonrpc');
    const order = await newOrder();
    const tx = pay(order, '0x2::sui::SUI', false, { extra: [{ owner: shop.receiveAddress, coinType: FAKE, amount: '1500000000' }] });
    const res = await complete(order.id, tx.txDigest);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(`transactionId: the coin it paid in could not be verified; order ${order.id} is paid in 0x2::sui::SUI`);
    expect(await tickets()).toBe(0);
    expect(await statusOf(order.id)).toBe(0);
  });
});

describe('an order whose payment arrived cannot be cancelled', () => {
  it('prevId naming an order with an indexed payment is 409 and writes nothing; the payment still completes the order', async () => {
    const { shop, player, recharge } = await shopAndPlayer();
    const first = (await recharge()).body;
    const digest = await paid(first, player.address, shop.receiveAddress);
    const before = await itemCount(deps);
    const replace = await recharge({ prevId: first.id });
    expect(replace.status).toBe(409);
    expect(replace.body.message).toBe(
      `prevId: order ${first.id} has a payment on chain (transaction ${digest}); complete it with orderComplete instead of replacing it`,
    );
    expect(await itemCount(deps)).toBe(before);

    const complete = await call(app, 'POST', `${base}/user/orderComplete`, { token: player.platform, body: { orderId: first.id, transactionId: digest } });
    expect(complete.status).toBe(200);
    expect(await balanceOf(deps, { uid: player.uid, projectName: shop.project.project_name, level: 1 })).toBe(100);
  });

  it('a cancel racing the payment: either the cancel is refused and the payment is the order’s, or the order is cancelled and the payment stranded', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 12; round++) {
      const { shop, player, recharge } = await shopAndPlayer();
      const order = (await recharge()).body;
      const digest = randomDigest();
      const event: ChainEvent = {
        type: PAYMENT_TYPE,
        txDigest: digest,
        eventSeq: '0',
        sender: player.address,
        parsedJson: { bill_no: order.bill_no, amount: '1500000000', from: player.address, to: shop.receiveAddress, coin_type: '0x2::sui::SUI' },
      };
      // The indexer retries a page that failed (a persistent conflict): so does this stand-in.
      const store = async () => {
        for (;;) {
          try {
            return await storePaymentEvent(deps, event);
          } catch {
            // the next run reads the page again
          }
        }
      };
      const [replaced] = await Promise.all([recharge({ prevId: order.id }), store()]);
      const stored = (await itemsOfType(deps, 'payment_event')).find((item) => item.bill_no === order.bill_no)!;
      const stranded = (await itemsOfType(deps, 'stranded_payment')).filter((item) => item.bill_no === order.bill_no);
      const current = await call(app, 'GET', `${base}/user/getDepositaddress`, {
        token: player.platform,
        query: { project: shop.project.project_name, orderId: order.id },
      });
      const status = current.body.data.order.status;
      if (status === 2) {
        expect(replaced.status).toBe(200);
        expect(stored.matched).toBe(false);
        expect(stranded).toEqual([expect.objectContaining({ reason: 'order_cancelled', order_id: order.id, status: 0 })]);
        outcomes.push('cancelled, payment stranded');
      } else {
        expect(status).toBe(0);
        expect(replaced.status).toBe(409);
        expect(stored.matched).toBe(true);
        expect(stranded).toEqual([]);
        const complete = await call(app, 'POST', `${base}/user/orderComplete`, { token: player.platform, body: { orderId: order.id, transactionId: digest } });
        expect(complete.status).toBe(200);
        outcomes.push('kept, payment completes it');
      }
    }
    expect(outcomes).toHaveLength(12);
  });
});
