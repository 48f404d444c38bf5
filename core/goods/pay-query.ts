import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { paymentOfBill, toRecord } from '../payments/chain-payments.js';
import type { VendorPaymentEvent } from '../chain/models.js';
import { orderIdOfBill, orderKey } from '../payments/order-keys.js';
import { ownerOf } from '../access/owners.js';
import { ownedRecord } from '../access/records.js';
import type { PlatformDeps } from '../platform/deps.js';
import { paymentError } from '../payments/errors.js';
import type { TokenClaims } from '../platform/tokens.js';
import { findReward } from './rewards.js';

/**
 * vendor_pay_query: the vendor payment event record of a bill, for those who may see it; everyone else gets
 * the same 404 as for a bill without a record, so bill numbers cannot be probed.
 * - a pay order's bill (`PO…`): its first payment on chain; readable by the order's player (platform token)
 *   and by the merchant owning the order's project (server token);
 * - any other bill: a reward; readable by the merchant that paid it (server token).
 */
export async function vendorPayment(deps: PlatformDeps, caller: TokenClaims, billNo: string): Promise<VendorPaymentEvent> {
  const missing = `billNo: no payment for bill ${billNo}`;
  const orderId = orderIdOfBill(billNo);
  if (orderId === undefined) {
    const reward = caller.kind === 'server' ? await findReward(deps, billNo) : undefined;
    return toRecord(ownedRecord(reward, (paid) => paid.accountId === caller.sub, missing));
  }
  const order = (await deps.db.send(new GetCommand({ TableName: deps.table, Key: orderKey(orderId), ConsistentRead: true }))).Item;
  // The order's player, or the merchant owning its project (owners are remembered per process).
  const projectOwner = caller.kind === 'server' && order ? await ownerOf(deps, 'project', String(order.project_name)) : undefined;
  ownedRecord(order, (record) => (caller.kind === 'platform' ? record.user_id === caller.sub : projectOwner === caller.sub), missing);
  const payment = await paymentOfBill(deps, billNo);
  if (!payment) throw paymentError('payment.not_found', missing);
  return payment;
}
