import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { nextId } from '../platform/counters.js';
import type { PlatformDeps } from '../platform/deps.js';
import { platformError } from '../platform/errors.js';
import { ticketError } from '../tickets/errors.js';
import { goodsError } from './errors.js';
import { AGAIN, retrying } from '../platform/retry.js';
import { ConcurrentChange, transactOrFailedConditions, type TransactItem } from '../platform/transactions.js';
import type { TokenClaims } from '../platform/tokens.js';
import { balanceKey, balanceOf, debitItems } from '../tickets/balances.js';
import { goodsKey } from '../access/keys.js';
import { goodsPlace, rememberPlace, type GoodsPlace, StoredGoods } from './goods.js';
import { GoodsStatus, VendorOrder, VendorOrderStatus, type CreateOrderBody, type CustomGoodsBody } from './models.js';
import { objectOf } from '../shared/records.js';
import { type ItemKey, readItems } from '../platform/batch.js';
import { answerOf, fingerprintOf, idempotencyRecordKey, keyedRequest, keyRecordOf, sameRequest, transactKeyed } from '../platform/idempotency.js';
import { answerKept, keptAnswer } from '../platform/kept-answers.js';
import { ownedRecord } from '../access/records.js';
import { goodsOrderKey, outerKey, traceKey } from './keys.js';

/**
 * Vendor goods orders, paid from the user's ticket balance of the goods' (project, level). The debit, the
 * order and its lookup items are one TransactWriteItems, so an order exists exactly when it was paid.
 * - "order by id": pk `VORDER#<id>`, sk `VORDER`;
 * - "order by trace key": pk `TRACE#<key>`, sk `TRACE` (attribute orderId; written with the order, so a key
 *   is readable as soon as it is returned, which an index would not guarantee);
 * - "order by outer id": pk `OUTER#<accountId>#<outerOrderId>`, sk `OUTER` (attributes orderId, the request's
 *   fingerprint and the first answer's JSON text, core/platform/kept-answers.ts): the claim that makes customGoods
 *   idempotent per merchant.
 * An order never changes after that transaction, so both lookup items also carry a copy of the stored order
 * (attribute `order`) and a lookup is one GetItem. Items written before the copy was added name only the
 * order id: those lookups read the order item too.
 * The debit's ledger entry is `goods#<orderId>`.
 */
/** "order by id" (goodsOrderKey), as stored, and the copy its lookup items carry: the order with its goods' owner account. */
export const StoredOrder = z.lazy(() => z.extend(objectOf(VendorOrder), { accountId: z.string() }));
type StoredOrder = z.infer<typeof StoredOrder>;

/** "order by trace key" (traceKey), as stored: the order's id, and its copy (none in items written before the copy). */
export const TraceLookup = z.object({ orderId: z.int(), order: z.optional(StoredOrder) });

/**
 * "order by outer id" (outerKey), as stored: the trace lookup's attributes, the request's fingerprint (the JSON of its
 * values in claims written before fingerprintOf) and the first answer's JSON text (none in claims written before).
 */
export const OuterClaim = z.extend(TraceLookup, { request: z.string(), answer_json: z.optional(z.string()) });
type OuterClaim = z.infer<typeof OuterClaim>;

/** The order as answered: without its owner account (the model leaves out its keys and `type`). */
function toOrder(item: StoredOrder): VendorOrder {
  const { accountId: _a, ...order } = item;
  return order;
}

/** createOrder: the player (platform token) buys goods for themself. */
export async function createOrder(
  deps: PlatformDeps,
  caller: TokenClaims,
  body: z.infer<typeof CreateOrderBody>,
  idempotencyHeader?: string,
): Promise<VendorOrder> {
  // With an Idempotency-Key, a retry (its first answer lost on the way) answers the first order, buying once.
  const keyed = keyedRequest(caller, 'createOrder', idempotencyHeader, body);
  // The key's record is read with the goods and the balance: a retry answers the first order before any check.
  const read = await readForOrder(deps, body.goodsId, body.userId, keyed && idempotencyRecordKey(keyed));
  if (keyed && read.claimed) return answerOf<VendorOrder>(read.claimed, keyed);
  const goods = orderable(read.goods, body.goodsId, body.projectName);
  await assertBalance(deps, read, goods, body.userId, body.quantity);
  // Every check has passed: only now is the id taken (a refused request writes nothing).
  const order = newOrder(deps, goods, await nextId(deps, 'vendor_order'), body.userId, body.quantity, null);
  const outcome = await transactKeyed(deps, keyed, toOrder(order), orderItems(deps, goods, order), 'userId: changed concurrently; retry', body.userId);
  if ('answer' in outcome) return outcome.answer;
  // The balance was enough when read: a concurrent debit took it meanwhile (the one refusal that wastes an id).
  throw shortBalance(goods, order.total);
}

/**
 * customGoods: a merchant's server orders goods of its own for a user. Idempotent on the merchant's
 * outerOrderId: the claim item is put, on condition it is new, in the transaction that debits, so among any
 * number of concurrent requests one debits and the others answer its order (or a 400 if theirs differs).
 */
export async function customGoods(deps: PlatformDeps, caller: TokenClaims, goodsId: number, body: z.infer<typeof CustomGoodsBody>): Promise<VendorOrder> {
  const claim = outerKey(caller.sub, body.outerOrderId);
  const request = { goodsId, userId: body.userId, quantity: body.quantity, projectName: body.projectName };
  return retrying(
    async () => {
      // The claim, the goods and (once the goods' level is known) the balance in one request. A replay answers
      // the first order even if the goods or the balance changed since.
      const read = await readForOrder(deps, goodsId, body.userId, claim);
      if (read.claimed) return replay(deps, OuterClaim.parse(read.claimed), request, body.outerOrderId);

      const goods = orderable(read.goods, goodsId, body.projectName);
      await assertBalance(deps, read, goods, body.userId, body.quantity);
      const order = newOrder(deps, goods, await nextId(deps, 'vendor_order'), body.userId, body.quantity, body.outerOrderId);
      const items = orderItems(deps, goods, order);
      const claimIndex = items.length;
      items.push({
        Put: {
          TableName: deps.table,
          Item: {
            ...claim,
            type: 'outer_order',
            orderId: order.id,
            request: fingerprintOf(request),
            created_at: order.created_at,
            order,
            ...keptAnswer(toOrder(order)),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      });
      // A transaction colliding with another (on the claim, usually) is run again by the platform; if that
      // other wrote the claim, the claim's condition fails then.
      const busy = `outerOrderId: ${body.outerOrderId} is being ordered concurrently; retry`;
      // Still colliding after the platform's retries (many requests with one id at once): the next round reads
      // the claim again and answers the winner's order.
      const failed = await transactOrFailedConditions(deps, items, busy).catch((error: unknown) => {
        if (error instanceof ConcurrentChange) return undefined;
        throw error;
      });
      if (failed === undefined) return AGAIN;
      if (failed.length === 0) return toOrder(order);
      if (!failed.includes(claimIndex)) throw shortBalance(goods, order.total);
      // Another request claimed the id first: the next round reads its claim, at once.
      return AGAIN;
    },
    {
      pause: false,
      // Reached only when every round kept colliding with other requests of this id.
      giveUp: () => {
        throw platformError('data.changed_concurrently', `outerOrderId: ${body.outerOrderId} is being ordered concurrently; retry`);
      },
    },
  );
}

/** customGoods_query: the caller merchant's order with that outer id. */
export async function orderByOuterId(deps: PlatformDeps, caller: TokenClaims, outerOrderId: string): Promise<VendorOrder> {
  const claimed = await deps.db.send(new GetCommand({ TableName: deps.table, Key: outerKey(caller.sub, outerOrderId), ConsistentRead: true }));
  const order = claimed.Item && (await orderOf(deps, OuterClaim.parse(claimed.Item)));
  if (!order) throw goodsError('goods.order_not_found', `outerOrderId: no order ${outerOrderId}`);
  return toOrder(order);
}

/** traceKey: an order by its trace key, for the merchant whose goods it bought; the same 404 for others. */
export async function orderByTraceKey(deps: PlatformDeps, caller: TokenClaims, key: string): Promise<VendorOrder> {
  const traced = await deps.db.send(new GetCommand({ TableName: deps.table, Key: traceKey(key), ConsistentRead: true }));
  const order = traced.Item && (await orderOf(deps, TraceLookup.parse(traced.Item)));
  return toOrder(ownedRecord(order, (found) => found.accountId === caller.sub, 'key: no order with that trace key'));
}

/** The order a lookup item (trace item or claim) names: its copy, or for an item without one the order item. */
async function orderOf(deps: PlatformDeps, lookup: z.infer<typeof TraceLookup>): Promise<StoredOrder | undefined> {
  if (lookup.order) return lookup.order;
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: goodsOrderKey(lookup.orderId), ConsistentRead: true }));
  return out.Item && StoredOrder.parse(out.Item);
}

/**
 * The balance is checked before the order id is taken, so an order refused for want of tickets writes nothing.
 * It is read with the goods, in one request, where the goods' place (project and level: it never changes) is
 * remembered (core/goods/goods.ts goodsPlace); the first order of goods in a process reads it by itself.
 */
interface OrderRead {
  goods?: StoredGoods;
  /** The buyer's balance item of the goods' remembered place: read when the place was known. */
  balance?: { place: GoodsPlace; item?: Record<string, unknown> };
  /** customGoods' claim of the outer id, or createOrder's Idempotency-Key record, when one was asked for. */
  claimed?: Record<string, unknown>;
}

/** The keys readForOrder reads: the goods, the buyer's balance when the goods' place is known, and `claim` last. */
function orderReadKeys(goodsId: number, buyer: string, place: GoodsPlace | undefined, claim?: ItemKey): ItemKey[] {
  return [goodsKey(goodsId), ...(place ? [balanceKey({ uid: buyer, ...place })] : []), ...(claim ? [claim] : [])];
}

/**
 * What createOrder reads first (its first reads, core/http/operation.ts FirstReads: the authorization layer's fresh read of the caller's deletion
 * mark brings them in the same request): the goods, the balance, the Idempotency-Key's record when one is sent.
 */
export const createOrderReads = (deps: PlatformDeps, caller: TokenClaims, body: { goodsId: number; userId: string }, key?: string) =>
  orderReadKeys(body.goodsId, body.userId, goodsPlace(deps, body.goodsId), key === undefined ? undefined : keyRecordOf(caller, 'createOrder', key));

/** What customGoods reads first (its first reads, core/http/operation.ts FirstReads, read with the caller's account state): the goods, the balance, the claim. */
export const customGoodsReads = (deps: PlatformDeps, caller: TokenClaims, goodsId: number, body: { userId: string; outerOrderId: string }) =>
  orderReadKeys(goodsId, body.userId, goodsPlace(deps, goodsId), outerKey(caller.sub, body.outerOrderId));

/** The goods, the buyer's balance of their level when it is known, and customGoods' claim: one BatchGetItem. */
async function readForOrder(deps: PlatformDeps, goodsId: number, buyer: string, claim?: ItemKey): Promise<OrderRead> {
  const place = goodsPlace(deps, goodsId);
  const keys = orderReadKeys(goodsId, buyer, place, claim);
  const items = await readItems(deps, keys);
  return {
    goods: items[0] && StoredGoods.parse(items[0]),
    ...(place && { balance: { place, item: items[1] } }),
    ...(claim && { claimed: items[keys.length - 1] }),
  };
}

/** 409 when the buyer's balance of the goods' level is short of the order's total. */
async function assertBalance(deps: PlatformDeps, read: OrderRead, goods: StoredGoods, buyer: string, quantity: number) {
  const target = { uid: buyer, projectName: goods.projectName, level: goods.level };
  const known = read.balance && read.balance.place.projectName === goods.projectName && read.balance.place.level === goods.level;
  if (!known) rememberPlace(deps, goods);
  const balance = known ? Number(read.balance!.item?.balance ?? 0) : await balanceOf(deps, target);
  const total = goods.price * quantity;
  if (balance < total) throw shortBalance(goods, total);
}

function orderable(goods: StoredGoods | undefined, goodsId: number, projectName: string): StoredGoods {
  if (!goods) throw goodsError('goods.not_found', `goodsId: no goods ${goodsId}`);
  if (goods.projectName !== projectName) throw goodsError('goods.other_project', `projectName: goods ${goodsId} are sold in project ${goods.projectName}`);
  if (goods.status !== GoodsStatus.onSale) throw goodsError('goods.not_on_sale', `goodsId: goods ${goodsId} are not on sale`);
  return goods;
}

function newOrder(deps: PlatformDeps, goods: StoredGoods, id: number, userId: string, quantity: number, outerOrderId: string | null): StoredOrder {
  const now = deps.now().toISOString();
  return {
    id,
    goodsId: goods.id,
    quantity,
    projectName: goods.projectName,
    level: goods.level,
    userId,
    total: goods.price * quantity,
    outerOrderId,
    // 128 random bits: a trace key is a capability to read the order, so it must not be guessable.
    trace_key: randomBytes(16).toString('base64url'),
    status: VendorOrderStatus.paid,
    merchant_id: goods.merchant_id,
    accountId: goods.accountId,
    created_at: now,
    updated_at: now,
  };
}

/** The debit (items 0 and 1: balance, ledger), the order and its trace item (carrying a copy of the order). */
function orderItems(deps: PlatformDeps, goods: StoredGoods, order: StoredOrder): TransactItem[] {
  const target = { uid: order.userId, projectName: goods.projectName, level: goods.level };
  return [
    ...debitItems(deps, target, order.total, `goods#${order.id}`),
    { Put: { TableName: deps.table, Item: { ...goodsOrderKey(order.id), type: 'vendor_order', ...order }, ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Put: {
        TableName: deps.table,
        Item: { ...traceKey(order.trace_key), type: 'trace', orderId: order.id, order },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

async function replay(
  deps: PlatformDeps,
  claim: OuterClaim,
  request: { goodsId: number; userId: string; quantity: number; projectName: string },
  outerOrderId: string,
): Promise<VendorOrder> {
  // Claims written before fingerprintOf hold the JSON of [goodsId, userId, quantity, projectName].
  if (!sameRequest(claim.request, request, () => JSON.stringify([request.goodsId, request.userId, request.quantity, request.projectName]))) {
    throw goodsError(
      'goods.order_id_reused',
      `outerOrderId: ${outerOrderId} was already used for an order with other contents (goods, userId, quantity or projectName)`,
    );
  }
  // The first answer as sent; claims written before keep none, and answer the order as stored.
  if (claim.answer_json !== undefined) return answerKept(claim) as VendorOrder;
  const order = await orderOf(deps, claim);
  // The claim and its order are written together, so a claim without its order cannot be.
  if (!order) throw new Error(`order ${String(claim.orderId)} of outer id ${outerOrderId} is missing`);
  return toOrder(order);
}

/**
 * The balance is short: read before the order id is taken, or (a concurrent debit) the order transaction's
 * balance condition failed, its other conditions being on fresh keys.
 */
function shortBalance(goods: StoredGoods, total: number) {
  return ticketError(
    'tickets.balance_short',
    `quantity: the balance of project ${goods.projectName} level ${goods.level} is less than the ${total} tickets the order costs`,
  );
}
