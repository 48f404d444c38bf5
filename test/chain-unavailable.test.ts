import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAIN_RETRY_AFTER_SECONDS } from '../core/chain/errors.js';
import { indexEvents } from '../core/chain/indexer.js';
import { createChain } from '../core/chain/source.js';
import { paymentHandlers } from '../core/payments/indexer-handlers.js';
import { createInnerApp } from '../functions/inner.js';
import { createPayApp } from '../functions/pay.js';
import { answerViolations } from './support/contract-answers.js';
import { createTestDeps, itemCount } from './support/deps.js';
import { HERO_BASE, heroNft, heroPlayer, heroWorld, type HeroWorld } from './support/heroes.js';
import { call, type CallResult } from './support/http.js';
import { servedDocument } from './support/openapi-check.js';
import { playerWithTokens, projectWithLevel, rechargeThrough } from './support/payments.js';
import { startSuiGraphQL } from './support/sui-graphql.js';
import { ChainScript, PAYMENT_TYPE, randomDigest, SUI, startSuiNode, type Loopback } from './support/sui-node.js';

/**
 * Every operation that reads the chain while it answers (orderComplete's read of a transaction not yet indexed,
 * a stranded payment's refund check, the hero NFT reads), with the loopback chain stand-in failing: the 503 is
 * the one its OpenAPI document declares (its code among the 503's codes, Retry-After where the code's catalogue
 * entry says so), and the answer carries that header. Each answer is checked as the run's answers are
 * (test/support/contract-answers.ts): status, required headers, Retry-After only where documented, the body's schema.
 */
const base = '/v2-testing';
const PRICE = '1500000000';
const stops: (() => Promise<void>)[] = [];

afterAll(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

/** The answer as the client received it, checked against the served document of its operation. */
async function expectDocumented(method: string, path: string, res: CallResult) {
  expect(await answerViolations(method, path, new Response(res.text, { status: res.status, headers: res.headers }))).toEqual([]);
}

/** A 503 of `code`, with Retry-After exactly when the code sends one, as documented. */
async function expectUnavailable(method: string, path: string, res: CallResult, code: 'chain.unreadable' | 'chain.unconfigured') {
  expect({ status: res.status, code: res.body.error }, res.text).toEqual({ status: 503, code });
  expect(res.headers.get('retry-after')).toBe(code === 'chain.unreadable' ? String(CHAIN_RETRY_AFTER_SECONDS) : null);
  await expectDocumented(method, path, res);
}

/** A stage reading a loopback node of `kind`, a shop, a player, and their recharge orders. */
async function stage(kind: 'jsonrpc' | 'graphql') {
  const script = new ChainScript();
  const node: Loopback = kind === 'jsonrpc' ? await startSuiNode(script) : await startSuiGraphQL(script);
  stops.push(node.stop);
  const deps = await createTestDeps();
  deps.chain = createChain({ kind, url: node.url, paymentEventType: PAYMENT_TYPE }, { timeoutMs: 2000 });
  const pay = createPayApp(deps);
  const shop = await projectWithLevel(deps);
  const player = await playerWithTokens(deps);
  const project = shop.project.project_name;
  const recharge = (prevId = -1) => rechargeThrough(pay, shop, player, PRICE, prevId);
  const payOnChain = (billNo: string, emit: 'string' | false = 'string') =>
    script.pay({ billNo, amount: PRICE, from: player.address, to: shop.receiveAddress, coinType: SUI, emit });
  return { script, node, deps, pay, shop, player, project, recharge, payOnChain };
}

describe('orderComplete with the chain node failing', () => {
  const path = `${base}/account/user/orderComplete`;

  it.each(['jsonrpc', 'graphql'] as const)(
    '%s: the transaction read or its balance changes read fails: 503 chain.unreadable with Retry-After, as documented; then it completes',
    async (kind) => {
      const s = await stage(kind);
      const complete = (orderId: number, transactionId: string) => call(s.pay, 'POST', path, { token: s.player.platform, body: { orderId, transactionId } });

      // Not indexed: orderComplete reads the transaction from the node, which fails.
      const order = await s.recharge();
      const paid = s.payOnChain(order.bill_no);
      for (const failure of ['error', 'http-503', 'drop'] as const) {
        s.node.failNext(failure);
        await expectUnavailable('POST', path, await complete(order.id, paid.txDigest), 'chain.unreadable');
      }
      // The contract names no coin: the transaction is read, then its balance changes, which fail.
      const silentOrder = await s.recharge();
      const silent = s.payOnChain(silentOrder.bill_no, false);
      s.node.failAt(s.node.requests.length + 2, 'error');
      await expectUnavailable('POST', path, await complete(silentOrder.id, silent.txDigest), 'chain.unreadable');

      // The node answers again: both complete.
      s.node.recover();
      for (const [id, digest] of [
        [order.id, paid.txDigest],
        [silentOrder.id, silent.txDigest],
      ] as const) {
        const done = await complete(id, digest);
        expect(done.status, done.text).toBe(200);
        await expectDocumented('POST', path, done);
      }
    },
  );

  it('declares chain.unreadable among its 503 codes, with Retry-After required (every 503 code of it sends one)', () => {
    const answer = servedDocument(base).paths['/account/user/orderComplete'].post.responses['503'];
    const error = answer.content['application/json'].schema.properties.error;
    expect(error.enum).toEqual(expect.arrayContaining(['chain.unreadable', 'table.busy']));
    expect(answer.headers['Retry-After']).toMatchObject({ required: true });
  });
});

describe('stranded_refund with the chain node failing or not configured', () => {
  const path = `${base}/merchant/payments/stranded/refund`;

  it('the refund check: 503 chain.unreadable with Retry-After, or chain.unconfigured without; nothing written; then it is recorded', async () => {
    const s = await stage('jsonrpc');
    const inner = createInnerApp(s.deps);
    // Paid after its order was replaced: a stranded payment of the project.
    const first = await s.recharge();
    await s.recharge(first.id);
    const late = s.payOnChain(first.bill_no);
    await indexEvents(s.deps, { handlers: paymentHandlers(s.deps), sleep: async () => {} });
    const refundDigest = randomDigest();
    s.script.changes(
      refundDigest,
      { owner: s.shop.receiveAddress, coinType: SUI, amount: `-${PRICE}` },
      { owner: s.player.address, coinType: SUI, amount: PRICE },
    );
    const refund = () =>
      call(inner, 'POST', path, {
        token: s.shop.owner.token,
        body: { project_name: s.project, tx_digest: late.txDigest, event_seq: String(late.eventSeq), refund_digest: refundDigest },
      });

    const before = await itemCount(s.deps);
    s.node.failNext('error');
    await expectUnavailable('POST', path, await refund(), 'chain.unreadable');
    const chain = s.deps.chain;
    s.deps.chain = undefined;
    try {
      await expectUnavailable('POST', path, await refund(), 'chain.unconfigured');
    } finally {
      s.deps.chain = chain;
    }
    expect(await itemCount(s.deps)).toBe(before);
    const refunded = await refund();
    expect(refunded.status, refunded.text).toBe(200);
  });
});

describe('hero NFT reads with the gRPC full node failing or not configured', () => {
  let world: HeroWorld;
  let deps: Awaited<ReturnType<typeof createTestDeps>>;

  beforeAll(async () => {
    deps = await createTestDeps();
    world = await heroWorld(deps);
    stops.push(world.node.stop);
  });

  it('bind and nft_detail: 503 chain.unreadable with Retry-After, or chain.unconfigured without, as documented', async () => {
    const player = await heroPlayer(world, deps);
    const nft = heroNft(player.address);
    world.script.putObject(nft);
    const bind = () => world.request('POST', '/heroes/bind', { token: player.hero, body: { objectId: nft.objectId } });
    const detail = () => world.request('GET', `/heroes/nft/${nft.objectId}`, { token: player.hero });
    const bindPath = `${HERO_BASE}/heroes/bind`;
    const detailPath = `${HERO_BASE}/heroes/nft/${nft.objectId}`;

    world.node.failNext('error');
    await expectUnavailable('POST', bindPath, await bind(), 'chain.unreadable');
    world.node.failNext('drop');
    await expectUnavailable('GET', detailPath, await detail(), 'chain.unreadable');
    const chain = deps.chain;
    deps.chain = { ...chain!, reads: undefined };
    try {
      await expectUnavailable('POST', bindPath, await bind(), 'chain.unconfigured');
      await expectUnavailable('GET', detailPath, await detail(), 'chain.unconfigured');
    } finally {
      deps.chain = chain;
    }
    expect((await bind()).status).toBe(200);
  });
});
