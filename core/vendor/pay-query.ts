import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { paymentOfBill, toRecord } from '../chain/payments.js';
import type { VendorPaymentEvent } from '../chain/models.js';
import { orderIdOfBill, orderKey } from '../payments/order-keys.js';
import { findProject } from '../payments/projects.js';
import type { Deps } from '../platform/deps.js';
import { notFound } from '../platform/errors.js';
import type { TokenClaims } from '../platform/tokens.js';
import { findReward } from './rewards.js';

/**
 * vendor_pay_query: the vendor payment event record of a bill, for those who may see it; everyone else gets
 * the same 404 as for a bill without a record, so bill numbers cannot be probed.
 * - a pay order's bill (`PO…`): its first payment on chain; readable by the order's player (platform token)
 *   and by the merchant owning the order's project (server token);
 * - any other bill: a reward; readable by the merchant that paid it (server token).
 */
export async function vendorPayment(deps: Deps, caller: TokenClaims, billNo: string): Promise<VendorPaymentEvent> {
  const missing = notFound(`billNo: no payment for bill ${billNo}`);
  const orderId = orderIdOfBill(billNo);
  if (orderId === undefined) {
    const reward = caller.kind === 'server' ? await findReward(deps, billNo) : undefined;
    if (!reward || reward.accountId !== caller.sub) throw missing;
    return toRecord(reward);
  }
  const order = (await deps.db.send(new GetCommand({ TableName: deps.table, Key: orderKey(orderId), ConsistentRead: true }))).Item;
  if (!order || !(await mayReadOrder(deps, caller, order))) throw missing;
  const payment = await paymentOfBill(deps, billNo);
  if (!payment) throw missing;
  return payment;
}

async function mayReadOrder(deps: Deps, caller: TokenClaims, order: Record<string, unknown>): Promise<boolean> {
  if (caller.kind === 'platform') return order.user_id === caller.sub;
  const project = await findProject(deps, order.project_name as string);
  return project?.accountId === caller.sub;
}
