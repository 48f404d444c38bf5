/**
 * The goods domain's keys, built here alone (its kinds are declared in items.ts):
 * - "order by id": pk `VORDER#<id>`, sk `VORDER`; "order by trace key": pk `TRACE#<key>`, sk `TRACE`; "order by
 *   outer id": pk `OUTER#<accountId>#<outerOrderId>`, sk `OUTER` (core/goods/orders.ts);
 * - "reward of a bill": pk `BILL#<billNo>`, sk `REWARD`, next to the bill's chain payments (core/goods/rewards.ts).
 * A goods order's debit is the ledger entry `goods#<orderId>`, a reward's credit `reward#<billNo>`.
 */
export const goodsOrderKey = (id: number | string) => ({ pk: `VORDER#${id}`, sk: 'VORDER' });
export const traceKey = (key: string) => ({ pk: `TRACE#${key}`, sk: 'TRACE' });
export const outerKey = (accountId: string, outerOrderId: string) => ({ pk: `OUTER#${accountId}#${outerOrderId}`, sk: 'OUTER' });
export const rewardKey = (billNo: string) => ({ pk: `BILL#${billNo}`, sk: 'REWARD' });
/** "a merchant's goods, newest first" (core/goods/goods.ts): the index partition gsi1pk `MERCHANT_GOODS#<accountId>`. */
export const merchantGoodsPartition = (accountId: string) => `MERCHANT_GOODS#${accountId}`;

/** The ledger references of a goods order's debit and of a reward's credit. */
export const GOODS_REF = 'goods#';
export const REWARD_REF = 'reward#';
