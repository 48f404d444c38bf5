import { VendorPaymentEvent } from '../../core/chain/models.js';
import { allow, consoleAuth, owns } from '../../core/http/auth.js';
import type { OperationSpec } from '../../core/http/operation.js';
import {
  BillQuery,
  CreateOrderBody,
  CustomGoodsBody,
  Goods,
  GoodsCreate,
  GoodsIdParams,
  GoodsPage,
  GoodsPageQuery,
  OrderBillQuery,
  OuterOrderQuery,
  PaymentSignature,
  RewardBody,
  TraceKeyQuery,
  VendorOrder,
} from '../../core/vendor/models.js';
import { batchRead, merchantToken, platformToken, serverToken } from './errors.js';

/**
 * Vendor operations of the inner group (docs/api.md, "Vendor goods and the vendor wallet"), and the goods catalogue
 * that vendor orders buy from (console operations of ours: the compatibility contract names goods only by id).
 */
export const innerVendorOps = {
  vendor_pay_query: {
    name: 'vendor_pay_query',
    method: 'GET',
    path: '/wallet/vendor/pay',
    auth: allow(
      ['platform', 'server'],
      [owns.record('query.billNo', 'bill', "the order's user (platform), or the merchant of the order's project or of the reward (server)")],
    ),
    summary: 'The vendor payment event record of a bill',
    description:
      "A pay order's bill (`PO…`): its first payment on chain, for the order's player (platform token) or the merchant owning the order's project (server token). Any other bill: a reward the calling merchant paid with vendor_reward (event_type 2).",
    query: BillQuery,
    status: 200,
    envelope: 'data',
    response: VendorPaymentEvent,
    errors: {
      400: 'billNo missing or malformed',
      401: 'no token, or an invalid or expired platform or server token',
      404: 'no payment recorded for the bill, or the bill is not the caller’s to read (the same answer)',
    },
    codes: ['payment.not_found'],
  },
  vendor_reward: {
    name: 'vendor_reward',
    method: 'POST',
    path: '/wallet/vendor/reward',
    auth: allow(['server'], [owns.self('body.userId'), owns.project('body.projectName')], { movesValue: true }),
    summary: 'Pay a user a reward in tickets through the vendor',
    description:
      "Credits `amount` tickets of (projectName, level) to userId and records a vendor payment event (event_type 2) under billNo, in one write. billNo is the merchant's, unique platform-wide: the same billNo with the same contents answers the first record and credits nothing more. `fromer` is the merchant's id; `toer` the user's wallet address (walletAddress, else the account's), else the user id. The record is not on chain: its cursor is `{eventSeq: '0', txDigest: ''}`.",
    body: RewardBody,
    status: 200,
    envelope: 'data',
    response: VendorPaymentEvent,
    errors: {
      400: 'a field is missing or invalid (billNo may not be a pay order bill, PO and ten digits)',
      ...serverToken,
      403: "the project is another merchant's",
      404: 'no such project, or userId has no account (a reward is paid to a user who has signed in)',
      409: "billNo was already used for another reward, or is being paid concurrently, or the user's deletion started meanwhile",
    },
    codes: ['data.changed_concurrently', 'reward.bill_reused', 'reward.no_account', 'tickets.player_deleted'],
  },
  vendor_signature: {
    name: 'vendor/signature',
    method: 'GET',
    path: '/wallet/vendor/signature',
    auth: allow(['platform'], [owns.record('query.billNo', 'pay order', 'user_id')]),
    summary: "Sign a payment request for one of the caller's pending pay orders",
    description:
      "The message is the BCS of the Move struct `PaymentRequest {bill_no: String, amount: u64, recipient: address, coin_type: String, expires_at_ms: u64}` (amount in base units; coin_type as `std::type_name` renders it, 64 hex digits without 0x; valid 10 minutes). `signature` is ECDSA P-256 over SHA-256 of the message with the stage's vendor key (`VendorSigningKey`, never a token key; 64 bytes r||s, low s), `public_key` that key compressed (33 bytes): a contract checks it with `sui::ecdsa_r1::secp256r1_verify(signature, public_key, message, 1)`.",
    query: OrderBillQuery,
    status: 200,
    envelope: 'data',
    response: PaymentSignature,
    errors: {
      400: 'billNo is not a pay order bill number',
      ...platformToken,
      404: "no order with that bill among the caller's",
      409: 'the order is not pending',
      503: 'the stage has no vendor signing key',
    },
    codes: ['order.not_found', 'order.not_pending', 'vendor.signing_unconfigured'],
  },
  goods_create: {
    name: 'goods_create',
    method: 'POST',
    path: '/merchant/goods',
    auth: consoleAuth([owns.project('body.projectName')]),
    summary: 'Add goods to the catalogue of one of your projects',
    description:
      '`price` is tickets of (projectName, level) per unit; status 1 on sale (default), 0 withdrawn. The goods id is what customGoods takes in its path and createOrder in goodsId.',
    body: GoodsCreate,
    status: 200,
    envelope: 'merchant',
    response: Goods,
    errors: {
      400: 'a field is missing or invalid',
      ...merchantToken,
      403: "the project is another merchant's, or the merchant is suspended",
      404: 'no such project, or the account has no merchant yet',
    },
    codes: ['merchant.none'],
  },
  goods_list: {
    name: 'goods_list',
    method: 'GET',
    path: '/merchant/goods',
    auth: consoleAuth([owns.own], { whileSuspended: true }),
    summary: "The caller's goods, newest first",
    description: 'Zero-based paging; `total` counts all of them, as text.',
    query: GoodsPageQuery,
    status: 200,
    envelope: 'merchant',
    response: GoodsPage,
    errors: { 400: 'page or pageSize out of range', ...merchantToken },
  },
} as const satisfies Record<string, OperationSpec>;

const orderShortOrWithdrawn = "the user's balance of the goods' project and level is short of price × quantity, or the goods are not on sale";

/** Vendor goods orders of the pay group: paid from the user's tickets, in one write. */
export const payVendorOps = {
  createOrder: {
    name: 'createOrder',
    method: 'POST',
    path: '/account/vendor/order',
    auth: allow(['platform'], [owns.self('body.userId'), owns.project('body.projectName')], { movesValue: true }),
    summary: 'Buy goods with tickets',
    description:
      "The player buys `quantity` of the goods; price × quantity tickets of the goods' project and level are taken from their balance with the order, never below zero. The order's trace_key is the merchant's handle for traceKey.",
    body: CreateOrderBody,
    headers: { 'Idempotency-Key': "the caller's key for this order (1-128 of [A-Za-z0-9_.:-]): a retry buys once and answers the first order" },
    status: 200,
    envelope: 'data',
    response: VendorOrder,
    errors: {
      400: 'a field is missing or invalid, or projectName is not the goods’ project, or the Idempotency-Key is malformed',
      422: 'the Idempotency-Key was used for another order of this caller',
      ...platformToken,
      403: "userId is not the token's user",
      404: 'no such goods',
      409: orderShortOrWithdrawn,
      ...batchRead,
    },
    codes: ['goods.not_found', 'goods.not_on_sale', 'goods.other_project', 'idempotency.key_reused', 'idempotency.still_running', 'tickets.balance_short'],
  },
  customGoods: {
    name: 'customGoods',
    method: 'POST',
    path: '/account/vendor/goods/:goodsId',
    auth: allow(['server'], [owns.self('body.userId'), owns.goods('params.goodsId'), owns.project('body.projectName')], { movesValue: true }),
    summary: "Order the merchant's goods for a user, idempotent on outerOrderId",
    description:
      "The merchant's server orders goods of its own projects for a user, paid from the user's tickets. outerOrderId is the merchant's order id: sending it again with the same goods, userId, quantity and projectName answers the first order (nothing more is taken); with other contents it is 400.",
    params: GoodsIdParams,
    body: CustomGoodsBody,
    status: 200,
    envelope: 'data',
    response: VendorOrder,
    errors: {
      400: 'a field is missing or invalid, projectName is not the goods’ project, or outerOrderId was used for an order with other contents',
      ...serverToken,
      403: "the goods are another merchant's",
      404: 'no such goods',
      409: `${orderShortOrWithdrawn}, or the same outerOrderId is being ordered concurrently`,
    },
    codes: ['data.changed_concurrently', 'goods.not_found', 'goods.not_on_sale', 'goods.order_id_reused', 'tickets.balance_short'],
  },
  traceKey: {
    name: 'traceKey',
    method: 'GET',
    path: '/account/vendor/traceKey',
    auth: allow(['server'], [owns.record('query.key', 'vendor order', 'accountId')]),
    summary: 'An order of your goods by its trace key',
    query: TraceKeyQuery,
    status: 200,
    envelope: 'data',
    response: VendorOrder,
    errors: { 400: 'key missing or malformed', ...serverToken, 404: "no order with that trace key among the caller's goods" },
  },
  customGoods_query: {
    name: 'customGoods_query',
    method: 'GET',
    path: '/account/vendor/goods/query',
    auth: allow(['server'], [owns.own]),
    summary: 'Your order with that outerOrderId',
    query: OuterOrderQuery,
    status: 200,
    envelope: 'data',
    response: VendorOrder,
    errors: { 400: 'outerOrderId missing or malformed', ...serverToken, 404: 'the caller has no order with that outerOrderId' },
    codes: ['goods.order_not_found'],
  },
} as const satisfies Record<string, OperationSpec>;
