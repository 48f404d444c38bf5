import { BILL_PREFIX } from '../payments/order-keys.js';

/**
 * The goods domain's keys, built here alone (its kinds are declared in items.ts; a goods item's key is access's,
 * core/access/keys.ts):
 * - "order by id": pk `VORDER#<id>`, sk `VORDER`; "order by trace key": pk `TRACE#<key>`, sk `TRACE`; "order by
 *   outer id": pk `OUTER#<accountId>#<outerOrderId>`, sk `OUTER` (core/goods/orders.ts);
 * - "reward of a bill": pk `BILL#<billNo>`, sk `REWARD`, next to the bill's chain payments (core/goods/rewards.ts).
 * A goods order's debit is the ledger entry `goods#<orderId>`, a reward's credit `reward#<billNo>`.
 */
/** The partition prefixes and the sort keys of an order and of its two lookup items. */
export const VENDOR_ORDER_PREFIX = 'VORDER#';
export const VENDOR_ORDER_SORT = 'VORDER';
export const TRACE_PREFIX = 'TRACE#';
export const TRACE_SORT = 'TRACE';
export const OUTER_PREFIX = 'OUTER#';
export const OUTER_SORT = 'OUTER';
/** The sort key of a bill's reward, in the bill's partition (payments' BILL_PREFIX, beside its chain payments). */
export const REWARD_SORT = 'REWARD';
export const goodsOrderKey = (id: number | string) => ({ pk: `${VENDOR_ORDER_PREFIX}${id}`, sk: VENDOR_ORDER_SORT });
export const traceKey = (key: string) => ({ pk: `${TRACE_PREFIX}${key}`, sk: TRACE_SORT });
export const outerKey = (accountId: string, outerOrderId: string) => ({ pk: `${OUTER_PREFIX}${accountId}#${outerOrderId}`, sk: OUTER_SORT });
export const rewardKey = (billNo: string) => ({ pk: `${BILL_PREFIX}${billNo}`, sk: REWARD_SORT });
/** "a merchant's goods, newest first" (core/goods/goods.ts): the index partition gsi1pk `MERCHANT_GOODS#<accountId>`. */
export const merchantGoodsPartition = (accountId: string) => `MERCHANT_GOODS#${accountId}`;

/** The ledger references of a goods order's debit and of a reward's credit. */
export const GOODS_REF = 'goods#';
export const REWARD_REF = 'reward#';
