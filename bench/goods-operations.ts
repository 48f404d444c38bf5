import { randomUUID } from 'node:crypto';
import { payReward } from '../core/goods/rewards.js';
import { customGoods } from '../core/goods/orders.js';
import { goodsAndBuyer, paidPurchase, pendingPurchase, playerWithTokens, shopWithLevel, type BenchDeps } from './fixtures.js';
import type { OperationBench } from './operation-bench.js';

/** A customGoods request body for one unit of the goods, with a fresh outer order id. */
const customBody = (buyer: { uid: string }, goods: { projectName: string }) => ({
  userId: buyer.uid,
  quantity: 1,
  projectName: goods.projectName,
  outerOrderId: `partner-${randomUUID()}`,
});

/** A vendor order a merchant's server placed with customGoods (its trace key and outer id are the lookups). */
async function placedOrder(deps: BenchDeps) {
  const { owner, goods, buyer, server } = await goodsAndBuyer(deps);
  const order = await customGoods(deps, server, goods.id, customBody(buyer, goods));
  return { owner, order };
}

/**
 * Vendor operations: goods (console), goods orders paid in tickets, reward payouts, payment records and
 * signed payment requests. A vendor order never changes after the one transaction that writes it with its
 * lookup items (trace key, outer id claim), so a lookup item could carry the order itself: the minimum of
 * reading an order by either key is one GetItem.
 */
export const goodsOperations: OperationBench[] = [
  {
    group: 'inner',
    op: 'goods_create',
    minimum: 3,
    reason: 'one BatchGet (merchant for id and status, project for its owner) + goods id counter + Put',
    units: {
      write: 3,
      read: 0.5,
      why: "the merchant, eventually consistent (its id never changes; this call moves no value: 0.5) + goods id counter (1) + Put (1) and its entry in the merchant's goods index (1)",
    },
    prepare: async (deps) => {
      const shop = await shopWithLevel(deps);
      return { token: shop.owner.token, body: { name: 'Sword', projectName: shop.project.project_name, level: 1, price: 5 } };
    },
  },
  {
    group: 'inner',
    op: 'goods_list',
    minimum: 1,
    reason: "one Query of the merchant's goods (page and total from one read, as coins does)",
    units: { write: 0, read: 0.5, why: "one Query of the merchant's goods" },
    prepare: async (deps) => {
      const { owner } = await goodsAndBuyer(deps);
      return { token: owner.token };
    },
  },
  {
    group: 'pay',
    op: 'createOrder',
    minimum: 3,
    reason:
      "one BatchGet, strongly consistent: the caller's gone mark (fresh on a write) with the goods (price, project, status) and the buyer's balance of its level, known in a warm process (the route's reads; the Idempotency-Key's record when one is sent) + order id counter, once every check passed + one transaction (debit, ledger, order, trace item)",
    units: {
      write: 9,
      read: 3,
      why: 'the gone mark, goods and balance in one strongly consistent read (3 × 1); order id counter (1) + one transaction of 4 items: debit, ledger entry, order, trace item (8)',
    },
    floor: {
      roundTrips: 3,
      write: 9,
      why: "One read (the gone mark, the goods, the balance, and the key's record when one is sent); the vendor order id's counter; the transaction. Debit (2), ledger entry (2), order (2), trace item (2), counter (1).",
    },
    prepare: async (deps) => {
      const { goods, buyer } = await goodsAndBuyer(deps);
      return { token: buyer.token, body: { userId: buyer.uid, goodsId: goods.id, quantity: 1, projectName: goods.projectName } };
    },
  },
  {
    group: 'pay',
    op: 'customGoods',
    label: 'customGoods (new outerOrderId)',
    minimum: 3,
    reason:
      "one BatchGet, strongly consistent: the account state, read fresh because it moves value (suspension, revocation), with the named player's deletion mark, the goods, the buyer's balance of its level and the outer id's claim (the route's reads) + order id counter, once every check passed + one transaction (debit, ledger, order, trace item, claim)",
    units: {
      write: 11,
      read: 6,
      why: "the caller's account state (its merchant and revocation items), the player's gone mark, goods, balance and the outer id's claim in one strongly consistent read (6 × 1); order id counter (1) + one transaction of 5 items: debit, ledger entry, order, trace item, claim (10)",
    },
    floor: {
      roundTrips: 3,
      write: 11,
      why: "As createOrder's: one read (the account state, the named player's gone mark, goods, balance, the outer id's claim); the vendor order id's counter; the transaction. Debit (2), ledger entry (2), order (2), trace item (2), counter (1), and the outer id's claim (2).",
    },
    prepare: async (deps) => {
      const { owner, goods, buyer } = await goodsAndBuyer(deps);
      return { token: owner.serverToken, params: { goodsId: goods.id }, body: customBody(buyer, goods) };
    },
  },
  {
    group: 'pay',
    op: 'traceKey',
    minimum: 1,
    reason: 'trace item GetItem (it can carry the order, which never changes)',
    units: { write: 0, read: 0.5, why: 'trace item GetItem, eventually consistent (the order it carries never changes)' },
    prepare: async (deps) => {
      const { owner, order } = await placedOrder(deps);
      return { token: owner.serverToken, query: { key: order.trace_key } };
    },
  },
  {
    group: 'pay',
    op: 'customGoods_query',
    minimum: 1,
    reason: 'outer id claim GetItem (it can carry the order, which never changes)',
    units: { write: 0, read: 0.5, why: 'outer id claim GetItem, eventually consistent (the order it carries never changes)' },
    prepare: async (deps) => {
      const { owner, order } = await placedOrder(deps);
      return { token: owner.serverToken, query: { outerOrderId: order.outerOrderId! } };
    },
  },
  {
    group: 'inner',
    op: 'vendor_pay_query',
    label: 'vendor_pay_query (player, order bill)',
    minimum: 2,
    reason: "order GetItem (whose it is) ∥ Query of the bill's first payment",
    units: { write: 0, read: 1, why: "order GetItem and the bill's payment Query, only shown: eventually consistent (0.5 each)" },
    prepare: async (deps) => {
      const { player, order } = await paidPurchase(deps);
      return { token: player.platform, query: { billNo: order.bill_no } };
    },
  },
  {
    group: 'inner',
    op: 'vendor_pay_query',
    label: 'vendor_pay_query (server, reward bill)',
    minimum: 1,
    reason: 'reward GetItem (its payer is in it)',
    units: { write: 0, read: 0.5, why: 'reward GetItem, only shown: eventually consistent' },
    prepare: async (deps) => {
      const shop = await shopWithLevel(deps);
      const server = await deps.tokens.verify(shop.server, ['server']);
      const billNo = `R-${randomUUID()}`;
      const user = await playerWithTokens(deps);
      await payReward(deps, server, { billNo, userId: user.uid, projectName: shop.project.project_name, level: 1, amount: 3 });
      return { token: shop.server, query: { billNo } };
    },
  },
  {
    group: 'inner',
    op: 'vendor_reward',
    label: 'vendor_reward (new bill)',
    minimum: 3,
    reason:
      "one BatchGet, strongly consistent: the account state, read fresh because it moves value (suspension, revocation), with the named player's deletion mark, the project for its merchant id, the bill's reward and the user's account (the route's reads) + payment event id counter + one transaction",
    units: {
      write: 9,
      read: 6,
      why: "the caller's account state (its merchant and revocation items), the player's gone mark, project, the bill's reward and the account in one strongly consistent read (6 × 1); payment event id counter (1) + one transaction: the bill's reward record (2), balance (2), ledger (2), the gone-mark check (2)",
    },
    floor: {
      roundTrips: 3,
      write: 9,
      why: "One read (the account state, the named player's gone mark, project, the bill's reward, the account); the payment event id's counter; the transaction. The reward record (2), balance (2), ledger entry (2), the gone-mark check (2), the counter (1).",
    },
    prepare: async (deps) => {
      const shop = await shopWithLevel(deps);
      const user = await playerWithTokens(deps);
      // No walletAddress: the payout names the account's, so the account is read too.
      return { token: shop.server, body: { billNo: `R-${randomUUID()}`, userId: user.uid, projectName: shop.project.project_name, level: 1, amount: 40 } };
    },
  },
  {
    group: 'inner',
    op: 'vendor_signature',
    minimum: 1,
    reason: 'order GetItem (owner, status, amount, recipient)',
    units: { write: 0, read: 1, why: 'order GetItem, strongly consistent: a payment is signed on its current status' },
    prepare: async (deps) => {
      const { player, order } = await pendingPurchase(deps);
      return { token: player.platform, query: { billNo: order.bill_no } };
    },
  },
];
