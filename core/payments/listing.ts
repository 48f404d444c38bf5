import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { paymentUri } from '../payments/payment-kit.js';
import { paymentsOfPayer } from '../payments/chain-payments.js';
import { toBigInt } from '../shared/amounts.js';
import { findAccount } from '../identity/accounts.js';
import { readItems } from '../platform/batch.js';
import type { PaymentsDeps } from './deps.js';
import { paymentError } from './errors.js';
import { OrderStatus } from './models.js';
import { orderIdOfBill, orderKey, paidOrdersPartition, StoredOrder, storedOrder, userOrdersPartition } from './order-keys.js';
import { toPayOrder } from './orders.js';
import { projectKey } from '../access/keys.js';
import { storedProject } from './projects.js';

/** The most paid orders game/pay/coins reads for a user (one Query). */
const PAID_ORDERS_LIMIT = 1000;

/** game/pay/coins: the caller's paid orders, newest first, each with its project's name. */
export async function paidOrders(deps: PaymentsDeps, uid: string, page: number, pageSize: number) {
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': paidOrdersPartition(uid) },
      ScanIndexForward: false,
      Limit: PAID_ORDERS_LIMIT,
    }),
  );
  const orders = (out.Items ?? []).map((item) => StoredOrder.parse(item));
  return {
    data: orders.slice(page * pageSize, (page + 1) * pageSize).map((order) => ({ ...toPayOrder(order), project_name: order.project_name })),
    totalPage: Math.ceil(orders.length / pageSize),
  };
}

/**
 * getDepositaddress: where and how to pay for a project, and the bill number to pay with: that of the
 * named order, or else of the caller's newest pending order of the project (null when there is none).
 */
export async function depositAddress(deps: PaymentsDeps, uid: string, projectName: string, orderId?: number) {
  const { project, order } =
    orderId !== undefined
      ? await projectAndOrder(deps, uid, projectName, orderId)
      : await Promise.all([
          deps.db.send(new GetCommand({ TableName: deps.table, Key: projectKey(projectName) })).then((out) => storedProject(out.Item)),
          newestPendingOrder(deps, uid, projectName),
        ]).then(([project, order]) => ({ project, order }));
  if (!project) throw paymentError('project.not_found', `project: no project ${projectName}`);
  return {
    project_name: project.project_name,
    receive_address: project.receive_address,
    coin_type: project.coin_type,
    precison: project.precison,
    payment_function: deps.chain?.config.paymentFunction ?? null,
    order: order ? { ...pick(toPayOrder(order)), payment_uri: paymentUriOf(deps, order) } : null,
  };
}

const pick = ({ id, bill_no, amount, amount_base, status }: ReturnType<typeof toPayOrder>) => ({ id, bill_no, amount, amount_base, status });

/**
 * The Payment Kit URI that pays a pending order (its address, price, coin and bill number as the nonce,
 * through the stage's registry); null when the stage takes no Payment Kit payments or the order is not
 * pending (a payment then would only be stranded).
 */
function paymentUriOf(deps: PaymentsDeps, order: StoredOrder): string | null {
  const kit = deps.chain?.config.paymentKit;
  if (!kit || order.status !== OrderStatus.pending) return null;
  return paymentUri({
    receiver: order.receive_address,
    amount: toBigInt(order.amount_base),
    coinType: order.coin_type,
    nonce: order.bill_no,
    registry: kit.registry,
  });
}

/** The project and the caller's named order of it, in one BatchGetItem. */
async function projectAndOrder(deps: PaymentsDeps, uid: string, projectName: string, orderId: number) {
  const [projectItem, orderItem] = await readItems(deps, [projectKey(projectName), orderKey(orderId)]);
  const project = storedProject(projectItem);
  const order = storedOrder(orderItem);
  if (!order || order.user_id !== uid || order.project_name !== projectName) {
    throw paymentError('order.not_found', `orderId: the caller has no order ${orderId} of project ${projectName}`);
  }
  return { project, order };
}

async function newestPendingOrder(deps: PaymentsDeps, uid: string, projectName: string) {
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      FilterExpression: '#status = :pending AND project_name = :project',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pk': userOrdersPartition(uid), ':pending': OrderStatus.pending, ':project': projectName },
      ScanIndexForward: false,
      // The newest orders are where a pending one is; an older pending order is found by its id.
      Limit: 20,
    }),
  );
  return storedOrder(out.Items?.[0]);
}

/** user/deposit: the caller's chain payments (from their wallet address), each with the order it paid. */
export async function deposits(deps: PaymentsDeps, uid: string, page: number, pageSize: number) {
  const account = await findAccount(deps, uid);
  if (!account) return { data: [], totalPage: 0 };
  const { records, total } = await paymentsOfPayer(deps, account.wallet_address, page, pageSize);
  const ids = [...new Set(records.map((r) => orderIdOfBill(r.bill_no)).filter((id): id is number => id !== undefined))];
  const orders = new Map<number, StoredOrder>();
  if (ids.length > 0) {
    // A page of payments names at most pageSize (<= 100) orders; eventually consistent, like the payments' index.
    const items = await readItems(deps, ids.map(orderKey), { consistent: false });
    for (const order of items.map(storedOrder)) if (order) orders.set(order.id, order);
  }
  return {
    data: records.map((record) => {
      const order = orders.get(orderIdOfBill(record.bill_no) ?? -1);
      // Only the caller's own orders are shown: a payment may name someone else's bill.
      return { payment: record, order: order && order.user_id === uid ? toPayOrder(order) : null };
    }),
    totalPage: Math.ceil(total / pageSize),
  };
}
