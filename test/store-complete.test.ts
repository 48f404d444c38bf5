import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { findOrder } from '../core/payments/orders.js';
import { completeByStorePurchase, type StorePurchase } from '../core/app-stores/complete.js';
import { storeTxKey } from '../core/app-stores/keys.js';
import { barPurchase } from '../core/app-stores/purchase-claims.js';
import { balanceOf } from '../core/tickets/balances.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createPayApp } from '../functions/pay.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { playerWithTokens, projectWithLevel } from './support/payments.js';

/**
 * Completing an order by an app store purchase (core/app-stores/complete.ts): one transaction, once per
 * store transaction and once per order, whichever delivery of the purchase comes first.
 */

let deps: TestDeps;
let app: ReturnType<typeof createPayApp>;
beforeAll(async () => {
  deps = await createTestDeps();
  app = createPayApp(deps);
});

async function orders() {
  const shop = await projectWithLevel(deps);
  const player = await playerWithTokens(deps);
  const newOrder = async () => {
    const res = await call(app, 'POST', '/v2-testing/account/user/rechargeOrder', {
      token: player.platform,
      body: { userId: player.uid, project: shop.project.project_name, priceId: shop.level.priceId, prevId: -1, level: 1, amount: '1500000000' },
    });
    return (await findOrder(deps, res.body.id))!;
  };
  const tickets = () => balanceOf(deps, { uid: player.uid, projectName: shop.project.project_name, level: 1 });
  return { newOrder, tickets, player };
}

const purchase = (store: 'apple' | 'google' = 'apple'): StorePurchase => ({
  store,
  transactionId: String(Date.now()) + randomUUID().slice(0, 6),
  productId: 'tickets_100',
});

describe('completing an order by a store purchase', () => {
  it.each([
    ['apple', 2],
    ['google', 3],
  ] as const)('%s: pays the order with tx_type %i, claims the transaction and credits once', async (store, txType) => {
    const { newOrder, tickets } = await orders();
    const order = await newOrder();
    const bought = purchase(store);
    const first = await completeByStorePurchase(deps, order, bought);
    expect(first.credited).toBe(true);
    expect(await findOrder(deps, order.id)).toMatchObject({
      status: 1,
      tx_type: txType,
      tx_digest: `${store}:${bought.transactionId}`,
      store_product: 'tickets_100',
    });
    const claim = await deps.db.send(new GetCommand({ TableName: deps.table, Key: storeTxKey(store, bought.transactionId) }));
    expect(claim.Item).toMatchObject({ orderId: order.id, product_id: 'tickets_100' });
    expect(await tickets()).toBe(100);

    // The same purchase again (a notification after the verification): the same answer, nothing credited.
    const before = await itemCount(deps);
    const again = await completeByStorePurchase(deps, (await findOrder(deps, order.id))!, bought);
    expect(again).toMatchObject({ credited: false, order: { id: order.id, status: 1 } });
    expect(await itemCount(deps)).toBe(before);
    expect(await tickets()).toBe(100);
  });

  it('refuses the purchase for a second order, and a second purchase for a paid order, writing nothing', async () => {
    const { newOrder, tickets } = await orders();
    const [one, two] = [await newOrder(), await newOrder()];
    const bought = purchase();
    await completeByStorePurchase(deps, one, bought);
    const before = await itemCount(deps);
    await expect(completeByStorePurchase(deps, two, bought)).rejects.toMatchObject({
      kind: 'Conflict',
      message: `transactionId: store transaction ${bought.transactionId} paid another order`,
    });
    await expect(completeByStorePurchase(deps, (await findOrder(deps, one.id))!, purchase())).rejects.toMatchObject({
      kind: 'Conflict',
      message: `orderId: order ${one.id} is paid already, by another purchase`,
    });
    // An order read before it was paid (a stale read) is refused by the transaction's condition all the same.
    await expect(completeByStorePurchase(deps, one, purchase())).rejects.toMatchObject({ kind: 'Conflict' });
    expect(await itemCount(deps)).toBe(before);
    expect(await tickets()).toBe(100);
    expect((await findOrder(deps, two.id))?.status).toBe(0);
  });

  it('20 simultaneous deliveries of one purchase credit once; all answer the paid order', async () => {
    const { newOrder, tickets } = await orders();
    const order = await newOrder();
    const bought = purchase();
    const results = await Promise.all(Array.from({ length: 20 }, () => completeByStorePurchase(deps, order, bought)));
    expect(results.filter((r) => r.credited)).toHaveLength(1);
    expect(results.every((r) => r.order.id === order.id && r.order.status === 1)).toBe(true);
    expect(await tickets()).toBe(100);
  });
});

describe('barring a purchase nothing credited', () => {
  it('a second bar answers the claim there first, read from the refused write', async () => {
    const purchase = { store: 'apple' as const, transactionId: randomUUID() };
    expect(await barPurchase(deps, purchase, 'refunded', 'first')).toEqual({ barred: true, claim: { orderId: null, barred: 'refunded' } });
    // The refused put carries the first claim in DynamoDB's wire form; it is answered as plain values.
    expect(await barPurchase(deps, purchase, 'revoked', 'second')).toEqual({ barred: false, claim: { orderId: null, barred: 'refunded' } });
  });
});
