import type { FirstReads, Handlers, RouteGroup } from '../../core/http/operation.js';
import { createGoods, listGoods } from '../../core/goods/goods.js';
import { createOrder, createOrderReads, customGoods, customGoodsReads, orderByOuterId, orderByTraceKey } from '../../core/goods/orders.js';
import { vendorPayment } from '../../core/goods/pay-query.js';
import { payReward, rewardReads } from '../../core/goods/rewards.js';
import { signPaymentRequest } from '../../core/goods/signature.js';
import type { innerGoodsOps, payGoodsOps } from '../routes/goods.js';

/** Vendor operations of the inner group, spread into its handlers. Routes only translate HTTP to core/goods. */
export const innerGoodsHandlers: Handlers<RouteGroup<typeof innerGoodsOps>> = {
  vendor_pay_query: ({ deps, auth, query }) => vendorPayment(deps, auth, query.billNo),
  vendor_reward: ({ deps, auth, body }) => payReward(deps, auth, body),
  vendor_signature: ({ deps, auth, query }) => signPaymentRequest(deps, auth, query.billNo),
  goods_create: ({ deps, auth, body }) => createGoods(deps, auth, body),
  goods_list: ({ deps, auth, query }) => listGoods(deps, auth.sub, query.page, query.pageSize),
};

/** What the inner group's vendor handlers read first (operation.ts FirstReads). */
export const innerGoodsReads: FirstReads<RouteGroup<typeof innerGoodsOps>> = {
  vendor_reward: ({ body }) => rewardReads(body),
};

/** Vendor goods orders of the pay group, spread into its handlers. */
export const payGoodsHandlers: Handlers<RouteGroup<typeof payGoodsOps>> = {
  createOrder: ({ deps, auth, body, req }) => createOrder(deps, auth, body, req.header('idempotency-key')),
  customGoods: ({ deps, auth, params, body }) => customGoods(deps, auth, params.goodsId, body),
  traceKey: ({ deps, auth, query }) => orderByTraceKey(deps, auth, query.key),
  customGoods_query: ({ deps, auth, query }) => orderByOuterId(deps, auth, query.outerOrderId),
};

/** What the pay group's vendor handlers read first. */
export const payGoodsReads: FirstReads<RouteGroup<typeof payGoodsOps>> = {
  createOrder: ({ body, idempotencyKey }, caller, deps) => createOrderReads(deps, caller, body, idempotencyKey),
  customGoods: ({ body, params }, caller, deps) => customGoodsReads(deps, caller, params.goodsId, body),
};
