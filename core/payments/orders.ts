import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import { ownedRecord } from '../access/records.js';
import { toAccountRecord } from '../identity/accounts.js';
import { readItems } from '../platform/batch.js';
import { nextId } from '../platform/counters.js';
import type { PaymentsDeps } from './deps.js';
import { platformError } from '../platform/errors.js';
import { paymentError } from './errors.js';
import { accessError } from '../access/errors.js';
import { sortableInt } from '../platform/table.js';
import { transactOrFailedConditions } from '../platform/transactions.js';
import { formatUnits } from './money.js';
import { toBigInt } from '../shared/amounts.js';
import { OrderStatus, TxType, type PayOrder, type RechargeOrderBody } from './models.js';
import { billNoOf, orderKey, projectOrdersKeys, rechargeOrderReads, type StoredOrder, storedOrder, storeLinkKeys, userOrdersPartition } from './order-keys.js';
import { storedLevel, storedProject } from './projects.js';

export function toPayOrder(order: StoredOrder): PayOrder {
  return {
    id: order.id,
    project_id: order.project_id,
    deposit_id: order.deposit_id,
    amount: formatUnits(toBigInt(order.amount_base), order.precison),
    amount_base: toBigInt(order.amount_base).toString(),
    wallet_address: order.wallet_address,
    coin_type: order.coin_type,
    tx_type: order.tx_type,
    status: order.status,
    created_at: order.created_at,
    updated_at: order.updated_at,
    user_id: order.user_id,
    level: order.level,
    precison: order.precison,
    bill_no: order.bill_no,
    tickets: order.tickets,
    app_account_token: order.app_account_token ?? null,
  };
}

export async function findOrder(deps: PaymentsDeps, id: number): Promise<StoredOrder | undefined> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: orderKey(id), ConsistentRead: true }));
  return storedOrder(out.Item);
}

/**
 * rechargeOrder: a pending order for one price level, paid later on chain with its bill number. The project,
 * the level, the buyer's account and the order `prevId` names are read in one request; a `prevId` >= 0 cancels
 * that pending order of the caller in the same transaction that creates the new one (a retried payment
 * replaces its order), on condition that no payment of it has arrived (`payment_seen` absent, set in the
 * transaction that stores the payment): an order whose payment is on chain is completed, never cancelled (409).
 */
export async function createRechargeOrder(deps: PaymentsDeps, uid: string, input: z.infer<typeof RechargeOrderBody>): Promise<PayOrder> {
  if (input.userId !== uid) throw accessError('auth.not_caller', 'userId: not the signed-in user');
  // Everything the order depends on in one request, the order it replaces included: every check is made
  // before the order id is taken, so a refused request writes nothing (docs/data-model.md).
  const replaces = input.prevId >= 0;
  const [projectItem, levelItem, account, previousItem] = await readItems(deps, rechargeOrderReads(uid, input));
  const project = storedProject(projectItem);
  const level = storedLevel(levelItem);
  if (project?.status !== 1) throw paymentError('project.not_on_sale', `project: no project ${input.project} on sale`);
  if (level?.status !== 1) throw paymentError('level.not_on_sale', `level: project ${input.project} has no level ${input.level} on sale`);
  if (level.priceId !== input.priceId)
    throw paymentError('level.price_mismatch', `priceId: level ${input.level} of ${input.project} has price ${level.priceId}`);
  const price = toBigInt(level.amount_base);
  if (input.amount !== price.toString()) {
    throw paymentError('order.amount_mismatch', `amount: the price of level ${input.level} is ${price} base units (${formatUnits(price, level.precison)})`);
  }
  if (!account) throw paymentError('user.no_wallet_account', 'userId: the user has no wallet account yet; sign in with a wallet or zkLogin first');
  if (replaces) assertReplaceable(storedOrder(previousItem), input.prevId, uid);

  const id = await nextId(deps, 'order');
  const now = deps.now().toISOString();
  const order: StoredOrder = {
    id,
    project_id: project.project_id,
    deposit_id: null,
    amount_base: level.amount_base,
    wallet_address: toAccountRecord(account).wallet_address,
    coin_type: level.coin_type,
    tx_type: TxType.chain,
    status: OrderStatus.pending,
    created_at: now,
    updated_at: now,
    user_id: uid,
    level: level.level,
    precison: level.precison,
    bill_no: billNoOf(id),
    tickets: level.tickets,
    project_name: project.project_name,
    receive_address: project.receive_address,
    app_account_token: randomUUID(),
    ...(level.apple_product_id ? { apple_product_id: level.apple_product_id } : {}),
    ...(level.google_product_id ? { google_product_id: level.google_product_id } : {}),
  };
  const put = {
    TableName: deps.table,
    Item: {
      ...orderKey(id),
      type: 'order',
      ...order,
      gsi1pk: userOrdersPartition(uid),
      gsi1sk: sortableInt(id),
      ...storeLinkKeys(order.app_account_token!),
      ...projectOrdersKeys(order),
    },
  };
  if (!replaces) {
    await deps.db.send(new PutCommand(put));
    return toPayOrder(order);
  }
  const failed = await transactOrFailedConditions(deps, [
    { Put: put },
    {
      Update: {
        TableName: deps.table,
        Key: orderKey(input.prevId),
        UpdateExpression: 'SET #status = :cancelled, updated_at = :now',
        ConditionExpression: 'user_id = :me AND #status = :pending AND attribute_not_exists(payment_seen)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':cancelled': OrderStatus.cancelled, ':pending': OrderStatus.pending, ':me': uid, ':now': now },
      },
    },
  ]);
  if (failed.length > 0) {
    // The previous order changed since it was read (a payment arrived, a concurrent replacement): say how.
    assertReplaceable(await findOrder(deps, input.prevId), input.prevId, uid);
    throw platformError('data.changed_concurrently', `prevId: order ${input.prevId} changed concurrently; retry`);
  }
  return toPayOrder(order);
}

/** A pending order of the caller without a payment can be replaced; else 404 (not the caller's) or 409. */
function assertReplaceable(stored: StoredOrder | undefined, prevId: number, uid: string) {
  const previous = ownedRecord(stored, (order) => order.user_id === uid, `prevId: the caller has no order ${prevId}`);
  if (previous.status !== OrderStatus.pending) throw paymentError('order.not_pending', `prevId: order ${prevId} is not pending`);
  if (previous.payment_seen !== undefined) {
    const [txDigest] = previous.payment_seen.split('#');
    throw paymentError(
      'order.paid_on_chain',
      `prevId: order ${prevId} has a payment on chain (transaction ${txDigest}); complete it with orderComplete instead of replacing it`,
    );
  }
}

/**
 * The order an app store purchase names by its link (appAccountToken, obfuscatedExternalAccountId), or
 * undefined. The index is eventually consistent; a purchase is made from an order that exists well before it,
 * and whatever completes the order conditions on the order as stored, so a stale read cannot pay twice.
 */
export async function orderByStoreLink(deps: Pick<PaymentsDeps, 'db' | 'table'>, token: string): Promise<StoredOrder | undefined> {
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk = :sk',
      ExpressionAttributeValues: { ':pk': storeLinkKeys(token).gsi3pk, ':sk': 'ORDER' },
      Limit: 1,
    }),
  );
  return storedOrder(out.Items?.[0]);
}
