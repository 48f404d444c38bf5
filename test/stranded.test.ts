import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexEvents } from '../core/chain/indexer.js';
import { paymentHandlers } from '../core/payments/indexer-handlers.js';
import { createChain } from '../core/chain/source.js';
import { balanceOf } from '../core/tickets/balances.js';
import { createInnerApp } from '../functions/inner.js';
import { createPayApp } from '../functions/pay.js';
import { createWithoutkeyApp } from '../functions/withoutkey.js';
import { goneKey } from '../core/platform/players.js';
import { deleteAccountThroughApi } from './support/deleted-players.js';
import { call } from './support/http.js';
import { createTestDeps, itemCount, itemsOfType, type TestDeps } from './support/deps.js';
import { commandCounter } from './support/rankings.js';
import { merchantWithToken } from './support/merchants.js';
import { playerWithTokens, projectWithLevel, rechargeThrough } from './support/payments.js';
import { ChainScript, PAYMENT_TYPE, SUI, randomAddress, randomDigest, startSuiNode, type SuiNode } from './support/sui-node.js';

/**
 * Stranded payments (docs/api.md, "Payments and tickets"): payments on chain that match no open order are kept,
 * listed for the project's merchant and settled by an explicit, idempotent credit or refund, through the HTTP API,
 * with the chain on a loopback Sui node (JSON-RPC) and the indexer storing what it reads.
 */
const FAKE = `0x${'fa'.repeat(32)}::fake::FAKE`;
const FULL_SUI = `0x${'0'.repeat(63)}2::sui::SUI`;
const PRICE = '1500000000';

let deps: TestDeps;
let node: SuiNode;
let script: ChainScript;
let inner: ReturnType<typeof createInnerApp>;
let pay: ReturnType<typeof createPayApp>;
let withoutkey: ReturnType<typeof createWithoutkeyApp>;
const base = '/v2-testing';

beforeAll(async () => {
  script = new ChainScript();
  node = await startSuiNode(script);
  deps = await createTestDeps();
  deps.chain = createChain({ kind: 'jsonrpc', url: node.url, paymentEventType: PAYMENT_TYPE }, { timeoutMs: 2000 });
  inner = createInnerApp(deps);
  pay = createPayApp(deps);
  withoutkey = createWithoutkeyApp(deps);
});

afterAll(async () => {
  await node?.stop();
});

/** The chain indexer's pass (what the scheduled job does). */
const index = () => indexEvents(deps, { handlers: paymentHandlers(deps), sleep: async () => {} });

async function shopAndPlayer() {
  const shop = await projectWithLevel(deps);
  const player = await playerWithTokens(deps);
  const project = shop.project.project_name;
  const recharge = (prevId = -1) => rechargeThrough(pay, shop, player, PRICE, prevId);
  /** A payment on chain by the player to the project (its coin, its price, its address unless told). */
  const payOnChain = (billNo: string, options: { amount?: string; coinType?: string; to?: string; emit?: 'string' | 'type_name' | false } = {}) =>
    script.pay({
      billNo,
      amount: options.amount ?? PRICE,
      from: player.address,
      to: options.to ?? shop.receiveAddress,
      coinType: options.coinType ?? SUI,
      emit: options.emit ?? 'string',
    });
  const list = (query: Record<string, string | number> = {}, token = shop.owner.token) =>
    call(inner, 'GET', `${base}/merchant/payments/stranded`, { token, query: { project, ...query } });
  const act = (action: 'credit' | 'refund', event: { txDigest: string; eventSeq: number }, extra: Record<string, unknown> = {}, token = shop.owner.token) =>
    call(inner, 'POST', `${base}/merchant/payments/stranded/${action}`, {
      token,
      body: { project_name: project, tx_digest: event.txDigest, event_seq: String(event.eventSeq), ...extra },
    });
  const tickets = () => balanceOf(deps, { uid: player.uid, projectName: project, level: 1 });
  const orderStatus = async (orderId: number) =>
    (await call(pay, 'GET', `${base}/account/user/getDepositaddress`, { token: player.platform, query: { project, orderId } })).body.data.order.status;
  const complete = (orderId: number, transactionId: string) =>
    call(pay, 'POST', `${base}/account/user/orderComplete`, { token: player.platform, body: { orderId, transactionId } });
  /** A refund transaction on chain: the project's address pays `to` `amount` of `coinType`. */
  const refundOnChain = (to: string, amount: string, coinType: string) => {
    const digest = randomDigest();
    script.changes(digest, { owner: shop.receiveAddress, coinType, amount: `-${amount}` }, { owner: to, coinType, amount });
    return digest;
  };
  return { shop, player, project, recharge, payOnChain, list, act, tickets, orderStatus, complete, refundOnChain };
}

describe('stranded payments', () => {
  it("a payment arriving after its order was replaced is kept, listed for the project's merchant only, and credited once", async () => {
    const s = await shopAndPlayer();
    const first = await s.recharge();
    const second = await s.recharge(first.id);
    const late = s.payOnChain(first.bill_no);
    await index();

    const listed = await s.list();
    expect(listed.status).toBe(200);
    expect(listed.body.data.total).toBe('1');
    expect(listed.body.data.payments).toEqual([
      expect.objectContaining({
        bill_no: first.bill_no,
        amount: PRICE,
        coin_type: FULL_SUI,
        fromer: s.player.address,
        toer: s.shop.receiveAddress,
        cursor: { txDigest: late.txDigest, eventSeq: '0' },
        order_id: first.id,
        project_name: s.project,
        user_id: s.player.uid,
        reason: 'order_cancelled',
        status: 0,
        refund_digest: null,
      }),
    ]);

    // Another merchant neither sees nor settles it; an unknown project is 404. Nothing is written.
    const stranger = await merchantWithToken(deps);
    const before = await itemCount(deps);
    expect((await s.list({}, stranger.token)).status).toBe(403);
    expect((await s.list({ project: 'no-such-project' })).status).toBe(404);
    expect((await s.act('credit', late, {}, stranger.token)).status).toBe(403);
    expect((await s.act('refund', late, { refund_digest: randomDigest() }, stranger.token)).status).toBe(403);
    expect(await itemCount(deps)).toBe(before);
    expect(await s.tickets()).toBe(0);

    const counter = commandCounter(deps);
    counter.start();
    const credited = await s.act('credit', late);
    // The merchant's state (fresh: it moves value), the project and the payment in one batch; the order; the credit.
    expect(counter.stop()).toEqual({ BatchGetItem: 1, GetItem: 1, TransactWriteItems: 1 });
    expect(credited.status).toBe(200);
    expect(credited.body.data).toMatchObject({ status: 1, order_id: first.id, reason: 'order_cancelled' });
    expect(await s.tickets()).toBe(100);
    // The replaced order stays cancelled, the new one pending: the credit is the tickets, not the order.
    expect(await s.orderStatus(first.id)).toBe(2);
    expect(await s.orderStatus(second.id)).toBe(0);

    // Idempotent: the same answer, nothing more credited; and a credited payment cannot be refunded too.
    counter.start();
    const again = await s.act('credit', late);
    // The batch answers it: the payment is credited already.
    expect(counter.stop()).toEqual({ BatchGetItem: 1 });
    expect(again.status).toBe(200);
    expect(again.body.data.status).toBe(1);
    expect(await s.tickets()).toBe(100);
    const refund = await s.act('refund', late, { refund_digest: s.refundOnChain(s.player.address, PRICE, SUI) });
    expect(refund.status).toBe(409);
    expect(await s.tickets()).toBe(100);

    expect((await s.list({ status: 0 })).body.data.payments).toEqual([]);
    expect((await s.list({ status: 1 })).body.data.payments).toHaveLength(1);
  });

  it('credits once when 20 credits race', async () => {
    const s = await shopAndPlayer();
    const first = await s.recharge();
    await s.recharge(first.id);
    const late = s.payOnChain(first.bill_no);
    await index();
    const results = await Promise.all(Array.from({ length: 20 }, () => s.act('credit', late)));
    // Every call credited or answered the credited record.
    expect(results.filter((r) => r.status !== 200).map((r) => r.body)).toEqual([]);
    expect(results.every((r) => r.body.data.status === 1)).toBe(true);
    expect(await s.tickets()).toBe(100);
  });

  it('a payment of another amount is refused by orderComplete and kept; crediting it completes the still-open order', async () => {
    const s = await shopAndPlayer();
    const order = await s.recharge();
    const short = s.payOnChain(order.bill_no, { amount: '1000000000' });
    await index();
    const refused = await s.complete(order.id, short.txDigest);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^transactionId: it paid 1000000000 base units/);
    expect((await s.list()).body.data.payments).toEqual([expect.objectContaining({ reason: 'amount', amount: '1000000000', order_id: order.id })]);

    expect((await s.act('credit', short)).status).toBe(200);
    expect(await s.orderStatus(order.id)).toBe(1);
    expect(await s.tickets()).toBe(100);
    const coins = await call(pay, 'GET', `${base}/account/game/pay/coins`, { token: s.player.platform });
    expect(coins.body.data).toEqual([expect.objectContaining({ id: order.id, status: 1 })]);
    // orderComplete with the transaction that now paid it answers as for a completed order, crediting nothing more.
    expect((await s.complete(order.id, short.txDigest)).status).toBe(200);
    expect(await s.tickets()).toBe(100);
  });

  it('a second payment of an order is stranded: only the first completes the order', async () => {
    const s = await shopAndPlayer();
    const order = await s.recharge();
    const firstPayment = s.payOnChain(order.bill_no);
    const secondPayment = s.payOnChain(order.bill_no);
    await index();
    const withSecond = await s.complete(order.id, secondPayment.txDigest);
    expect(withSecond.status).toBe(409);
    expect(withSecond.body.message).toMatch(/matched to another payment; this one is kept as a stranded payment/);
    expect(await s.tickets()).toBe(0);
    expect((await s.complete(order.id, firstPayment.txDigest)).status).toBe(200);
    expect(await s.tickets()).toBe(100);
    expect((await s.list()).body.data.payments).toEqual([
      expect.objectContaining({ reason: 'duplicate', cursor: { txDigest: secondPayment.txDigest, eventSeq: '0' }, status: 0 }),
    ]);
  });

  it('a refund is recorded once, after the chain shows the payer paid back in the coin paid', async () => {
    const s = await shopAndPlayer();
    const order = await s.recharge();
    const wrongCoin = s.payOnChain(order.bill_no, { coinType: FAKE, emit: false });
    await index();
    expect((await s.list()).body.data.payments).toEqual([expect.objectContaining({ reason: 'coin', coin_type: FAKE, status: 0 })]);

    const before = await itemCount(deps);
    const unknown = await s.act('refund', wrongCoin, { refund_digest: randomDigest() });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/^refund_digest/);
    const tooLittle = await s.act('refund', wrongCoin, { refund_digest: s.refundOnChain(s.player.address, '1499999999', FAKE) });
    expect(tooLittle.status).toBe(409);
    const otherCoin = await s.act('refund', wrongCoin, { refund_digest: s.refundOnChain(s.player.address, PRICE, SUI) });
    expect(otherCoin.status).toBe(409);
    const someoneElse = await s.act('refund', wrongCoin, { refund_digest: s.refundOnChain(randomAddress(), PRICE, FAKE) });
    expect(someoneElse.status).toBe(409);
    expect(await itemCount(deps)).toBe(before);

    const refundDigest = s.refundOnChain(s.player.address, PRICE, FAKE);
    const refunded = await s.act('refund', wrongCoin, { refund_digest: refundDigest });
    expect(refunded.status).toBe(200);
    expect(refunded.body.data).toMatchObject({ status: 2, refund_digest: refundDigest });
    const again = await s.act('refund', wrongCoin, { refund_digest: refundDigest });
    expect(again.status).toBe(200);
    expect(again.text).toBe(refunded.text);
    const afterRefund = await itemCount(deps);
    expect((await s.act('refund', wrongCoin, { refund_digest: s.refundOnChain(s.player.address, PRICE, FAKE) })).status).toBe(409);
    expect(await itemCount(deps)).toBe(afterRefund);
    expect((await s.act('credit', wrongCoin)).status).toBe(409);
    expect(await s.tickets()).toBe(0);
    expect(await s.orderStatus(order.id)).toBe(0);

    // One refund transaction is the refund of one payment.
    const other = await s.recharge();
    const otherWrong = s.payOnChain(other.bill_no, { coinType: FAKE, emit: 'string' });
    await index();
    const beforeReuse = await itemCount(deps);
    const reused = await s.act('refund', otherWrong, { refund_digest: refundDigest });
    expect(reused.status).toBe(409);
    expect(reused.body.message).toMatch(/^refund_digest: transaction .* is recorded as the refund of another payment$/);
    expect((await s.list({ status: 0 })).body.data.payments).toEqual([expect.objectContaining({ bill_no: other.bill_no })]);
    expect(await itemCount(deps)).toBe(beforeReuse);
  });

  it("a payment naming no order, to the project's address, is the project's to refund; there is no one to credit", async () => {
    const s = await shopAndPlayer();
    const orphan = s.payOnChain('NOT-AN-ORDER');
    const elsewhere = s.payOnChain('ALSO-NOT-AN-ORDER', { to: randomAddress() });
    await index();
    const listed = (await s.list()).body.data.payments;
    expect(listed).toEqual([expect.objectContaining({ bill_no: 'NOT-AN-ORDER', reason: 'no_order', order_id: null, project_name: null, user_id: null })]);
    const credit = await s.act('credit', orphan);
    expect(credit.status).toBe(409);
    expect(credit.body.message).toMatch(/names no order/);
    // Paid to an address that is not the project's: not this merchant's to settle.
    expect((await s.act('refund', elsewhere, { refund_digest: s.refundOnChain(s.player.address, PRICE, SUI) })).status).toBe(404);
    expect((await s.act('refund', orphan, { refund_digest: s.refundOnChain(s.player.address, PRICE, SUI) })).status).toBe(200);
  });

  it("a payment for a deleted player's order credits no one: 409 tickets.player_deleted, nothing written; the merchant refunds it", async () => {
    const s = await shopAndPlayer();
    const order = await s.recharge();
    // The player deletes their account: the unpaid order is cancelled and kept under the deletion's pseudonym.
    await deleteAccountThroughApi(withoutkey, s.player);
    const late = s.payOnChain(order.bill_no);
    await index();
    const [listed] = (await s.list()).body.data.payments;
    expect(listed).toMatchObject({ order_id: order.id, reason: 'order_cancelled', user_id: expect.stringMatching(/^former:/) });

    const before = await itemCount(deps);
    const credit = await s.act('credit', late);
    expect([credit.status, credit.body.error]).toEqual([409, 'tickets.player_deleted']);
    expect(credit.body.message).toMatch(/^tx_digest: .*refund payment/);
    expect(await itemCount(deps)).toBe(before);
    expect((await itemsOfType(deps, 'ledger')).filter((entry) => entry.uid === listed.user_id)).toEqual([]);
    expect((await s.act('refund', late, { refund_digest: s.refundOnChain(s.player.address, PRICE, SUI) })).status).toBe(200);
  });

  it("a credit racing the player's deletion (its gone mark written, the order not yet kept under the pseudonym) is refused inside its transaction", async () => {
    const s = await shopAndPlayer();
    const first = await s.recharge();
    await s.recharge(first.id);
    const late = s.payOnChain(first.bill_no);
    await index();
    // The deletion's first write: from here nothing may be credited to the player.
    await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...goneKey(s.player.uid), type: 'gone', deleted_at: 1 } }));
    const before = await itemCount(deps);
    const credit = await s.act('credit', late);
    expect([credit.status, credit.body.error]).toEqual([409, 'tickets.player_deleted']);
    expect(await itemCount(deps)).toBe(before);
    expect(await s.tickets()).toBe(0);
  });

  it('nothing indexed is dropped: every payment event is its order’s or stranded', async () => {
    await index();
    const payments = await itemsOfType(deps, 'payment_event');
    const stranded = new Set((await itemsOfType(deps, 'stranded_payment')).map((item) => `${String(item.tx_digest)}#${String(item.event_seq)}`));
    expect(payments.length).toBeGreaterThan(0);
    for (const payment of payments) {
      const position = `${String(payment.cursor && (payment.cursor as { txDigest: string }).txDigest)}#${String((payment.cursor as { eventSeq: string }).eventSeq)}`;
      expect(payment.matched === true || stranded.has(position), `payment ${position} is neither matched nor stranded`).toBe(true);
      expect(payment.matched === true && stranded.has(position), `payment ${position} is both`).toBe(false);
    }
  });
});
