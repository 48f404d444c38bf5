import { saveLevel } from '../core/payments/projects.js';
import { createRechargeOrder } from '../core/payments/orders.js';
import { notificationPayload, signJws, transactionPayload } from '../test/support/app-store-signing.js';
import { notifications, pushBody } from '../test/support/google-play.js';
import { BENCH_BUNDLE, BENCH_PACKAGE, BENCH_PUSH_AUDIENCE, playerWithTokens, rechargeBody, shopWithLevel, type BenchDeps } from './fixtures.js';
import type { OperationBench } from './operation-bench.js';

const PRODUCT = 'com.bench.tickets';

/** A shop whose level 1 is sold as the store product `productIds` names. */
async function shopSelling(deps: BenchDeps, productIds: { apple_product_id: string } | { google_product_id: string }) {
  const shop = await shopWithLevel(deps);
  const level = { project_name: shop.project.project_name, level: 1, amount: String(shop.level.amount_base), tickets: shop.level.tickets, status: 1 };
  await saveLevel(deps, shop.owner.claims, { ...level, ...productIds });
  return shop;
}

/** A pending order of a level sold as an App Store product, and the signed transaction of its purchase. */
async function applePurchase(deps: BenchDeps) {
  const shop = await shopSelling(deps, { apple_product_id: PRODUCT });
  const player = await playerWithTokens(deps);
  const order = await createRechargeOrder(deps, player.uid, rechargeBody(shop, player));
  const signedTransaction = await signJws(
    deps.appleChain,
    transactionPayload({ bundleId: BENCH_BUNDLE, productId: PRODUCT, appAccountToken: order.app_account_token! }),
  );
  return { player, order, signedTransaction };
}

/** A pending order of a level sold as a Google Play product, its purchase known to the loopback Google, and the push of it. */
async function googlePurchase(deps: BenchDeps) {
  const shop = await shopSelling(deps, { google_product_id: PRODUCT });
  const player = await playerWithTokens(deps);
  const order = await createRechargeOrder(deps, player.uid, rechargeBody(shop, player));
  const token = `bench-${order.id}-${order.app_account_token}`;
  deps.google.purchases.set(token, {
    productId: PRODUCT,
    purchaseState: 0,
    consumptionState: 0,
    acknowledgementState: 0,
    obfuscatedExternalAccountId: order.app_account_token!,
  });
  const push = await deps.google.signPushToken({ aud: BENCH_PUSH_AUDIENCE });
  return { headers: { authorization: `Bearer ${push}` }, body: pushBody(notifications.purchased(BENCH_PACKAGE, token, PRODUCT)) };
}

/** App Store and Google Play purchases (the third-pay group). */
export const storeOperations: OperationBench[] = [
  {
    group: 'third-pay',
    op: 'app-verify-transaction',
    label: 'app-verify-transaction (first)',
    minimum: 3,
    reason:
      "whether the caller deleted their account (GetItem, fresh on a write) + one BatchGet (the order, the store transaction's claim) + one transaction (order paid, store transaction claimed, tickets credited)",
    units: {
      write: 14,
      read: 2,
      why: "the gone mark read fresh (1) + order and claim, eventually consistent as the transaction's conditions decide (1); one transaction: the order paid (2) and its four entries (4), the store transaction claimed (2), balance (2), ledger (2), the gone-mark check (2)",
    },
    prepare: async (deps) => {
      const { player, order, signedTransaction } = await applePurchase(deps);
      return { token: player.platform, body: { orderId: order.id, signedTransaction } };
    },
  },
  {
    group: 'third-pay',
    op: 'app-verify-transaction',
    label: 'app-verify-transaction (repeated)',
    minimum: 2,
    reason:
      'whether the caller deleted their account (GetItem, fresh on a write) + one BatchGet (the order, the claim): a purchase claimed for this order answers the order as read',
    units: { write: 0, read: 2, why: 'the gone mark read fresh (1) + order and claim, eventually consistent (1)' },
    prepare: async (deps) => {
      const purchase = await applePurchase(deps);
      const { verifyApplePurchase } = await import('../core/app-stores/apple-purchases.js');
      await verifyApplePurchase(deps, purchase.player.uid, { orderId: purchase.order.id, signedTransaction: purchase.signedTransaction });
      return { token: purchase.player.platform, body: { orderId: purchase.order.id, signedTransaction: purchase.signedTransaction } };
    },
  },
  {
    group: 'third-pay',
    op: 'app_asdn-v2-callback',
    label: 'app_asdn-v2-callback (ONE_TIME_CHARGE)',
    minimum: 4,
    reason:
      "one BatchGet (the notification's record, the purchase's claim) + Query of the order by its link (the purchase names only that) + one transaction (order paid, claim, tickets) + the notification's record",
    units: {
      write: 15,
      read: 1.5,
      why: "the notification's record and the claim, eventually consistent (the claim's condition decides: 1) + the order's Query (0.5); one transaction as app-verify-transaction's (14) + the notification's record (1)",
    },
    prepare: async (deps) => {
      const { signedTransaction } = await applePurchase(deps);
      return {
        body: {
          signedPayload: await signJws(
            deps.appleChain,
            notificationPayload({ notificationType: 'ONE_TIME_CHARGE', bundleId: BENCH_BUNDLE, signedTransactionInfo: signedTransaction }),
          ),
        },
      };
    },
  },
  {
    group: 'third-pay',
    op: 'app_asdn-v2-callback',
    label: 'app_asdn-v2-callback (TEST)',
    minimum: 2,
    reason: "the notification's record read (a repeat answers from it) + written",
    units: { write: 1, read: 0.5, why: "the notification's record, eventually consistent (0.5) + its Put (1)" },
    prepare: async (deps) => ({
      body: { signedPayload: await signJws(deps.appleChain, notificationPayload({ notificationType: 'TEST', bundleId: BENCH_BUNDLE })) },
    }),
  },
  {
    group: 'third-pay',
    op: 'google_callback',
    label: 'google_callback (purchase)',
    minimum: 4,
    reason:
      "one BatchGet (the message's record, the purchase's claim) + Query of the order by its link (the purchase names only that) + one transaction (order paid, claim, tickets) + the message's record; Google's API calls are not DynamoDB's",
    units: {
      write: 15,
      read: 1.5,
      why: "the message's record and the claim, eventually consistent (1) + the order's Query (0.5); one transaction as app-verify-transaction's (14) + the message's record (1)",
    },
    prepare: googlePurchase,
  },
  {
    group: 'third-pay',
    op: 'google_callback',
    label: 'google_callback (test)',
    minimum: 2,
    reason: "the message's record read + written",
    units: { write: 1, read: 0.5, why: "the message's record, eventually consistent (0.5) + its Put (1)" },
    prepare: async (deps) => ({
      headers: { authorization: `Bearer ${await deps.google.signPushToken({ aud: BENCH_PUSH_AUDIENCE })}` },
      body: pushBody(notifications.test(BENCH_PACKAGE)),
    }),
  },
];
