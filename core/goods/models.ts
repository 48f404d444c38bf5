import * as z from 'zod/mini';
import { EXAMPLE, example } from '../shared/examples.js';
import { userId } from '../identity/models.js';
import { projectName } from '../payments/models.js';
import { answered, intParam, paging, requiredText } from '../shared/fields.js';
import { suiAddress } from '../shared/sui-address.js';

/** Goods `status`: 1 on sale, 0 withdrawn (orders of withdrawn goods are refused). */
export const GoodsStatus = { withdrawn: 0, onSale: 1 } as const;
/** Vendor goods order `status`: an order exists only once paid (the debit and the order are one write). */
export const VendorOrderStatus = { paid: 1 } as const;

const positiveId = z.int().check(z.positive(), z.maximum(Number.MAX_SAFE_INTEGER));
/** A ticket level, as in the ticket operations. */
const level = z.int().check(z.minimum(0), z.maximum(1_000_000));
/** Bounds that keep price × quantity far inside the safe integers (at most 10^15 tickets). */
const quantity = z.int().check(z.positive(), z.maximum(1_000_000));
const price = z.int().check(z.positive(), z.maximum(1_000_000_000));
const tickets = z.int().check(z.positive(), z.maximum(1_000_000_000_000));

/** goods_create: a catalogue entry paid in tickets of (projectName, level). */
export const GoodsCreate = z.lazy(() =>
  z.object({
    name: requiredText(100).check(example('Golden sword')),
    projectName,
    level,
    /** Tickets per unit. */
    price,
    status: z._default(z.int().check(z.minimum(0), z.maximum(1)), GoodsStatus.onSale),
  }),
);

export const Goods = z.lazy(() =>
  z.object({
    id: z.int(),
    name: z.string(),
    projectName: answered.projectName,
    level: z.int(),
    price: z.int(),
    status: z.int(),
    merchant_id: z.int(),
    created_at: answered.time,
    updated_at: answered.time,
  }),
);
export type Goods = z.infer<typeof Goods>;

/** goods_list: `total` is text, like the other console lists (gamelist, query merchant game). */
export const GoodsPage = z.lazy(() => z.object({ total: z.string(), goods: z.array(Goods) }));
export const GoodsPageQuery = z.lazy(() => z.object(paging));

/** The partner's order id: what makes customGoods idempotent. */
export const outerOrderId = z.string().check(z.regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'expected 1-128 letters, digits, _ . : or -'), example('shop-order-7731'));
/** A trace key as returned on creation (22 base64url characters today; a little room either way). */
const traceKey = z.string().check(z.regex(/^[A-Za-z0-9_-]{16,64}$/, 'expected a trace key as returned with the order'), example('xOuydmmdsjRhbkTYkU0f6YAV'));

/** The contract's createOrder body (docs/api.md, "The compatibility contract"). */
export const CreateOrderBody = z.lazy(() => z.object({ userId, goodsId: positiveId, quantity, projectName }));
/** The contract's customGoods body; the goods are named by the path. */
export const CustomGoodsBody = z.lazy(() => z.object({ userId, quantity, projectName, outerOrderId }));
export const GoodsIdParams = z.lazy(() => z.object({ goodsId: intParam({ min: 1 }) }));
export const TraceKeyQuery = z.lazy(() => z.object({ key: traceKey }));
export const OuterOrderQuery = z.lazy(() => z.object({ outerOrderId }));

/** A vendor goods order (ours: the contract fixes no success body). `total` = price × quantity tickets. */
export const VendorOrder = z.lazy(() =>
  z.object({
    id: z.int(),
    goodsId: z.int(),
    quantity: z.int(),
    projectName: answered.projectName,
    level: z.int(),
    userId: answered.userId,
    total: z.int(),
    outerOrderId: z.nullable(z.string().check(example('shop-order-7731'))),
    trace_key: z.string().check(example('xOuydmmdsjRhbkTYkU0f6YAV')),
    status: z.int(),
    merchant_id: z.int(),
    created_at: answered.time,
    updated_at: answered.time,
  }),
);
export type VendorOrder = z.infer<typeof VendorOrder>;

const billText = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected a bill number: 1-64 letters, digits, _ or -'), example(EXAMPLE.billNo));
/** vendor_pay_query: a pay order's bill (`PO…`) or a reward's. */
export const BillQuery = z.lazy(() => z.object({ billNo: billText }));
/**
 * The bill rules of vendor/signature and vendor_reward, each one regex so that the OpenAPI document states it as
 * one pattern. A pay order's bill is `PO` and ten or more digits (core/payments/order-keys.ts orderIdOfBill),
 * within a bill number's 64 characters; a reward's bill is the merchant's own, any bill number but such a one.
 */
const PAY_ORDER_BILL = /^PO\d{10,62}$/;
const REWARD_BILL = /^(?!PO\d{10,}$)[A-Za-z0-9_-]{1,64}$/;

/** vendor/signature: only pay orders are paid through the vendor's contract. */
export const OrderBillQuery = z.lazy(() =>
  z.object({ billNo: z.string().check(z.regex(PAY_ORDER_BILL, 'expected a pay order bill number such as PO0000000001'), example(EXAMPLE.billNo)) }),
);
/** A reward's bill number is the merchant's; `PO` and ten or more digits would read as a pay order's bill. */
const rewardBillNo = z
  .string()
  .check(
    z.regex(REWARD_BILL, 'expected a bill number: 1-64 letters, digits, _ or -, not PO followed by ten or more digits (which names a pay order)'),
    z.describe("The merchant's own bill number: 1-64 letters, digits, _ or -, not PO followed by ten or more digits (which names a pay order)."),
    example('reward-2026-03-14-0007'),
  );

export const RewardBody = z.lazy(() =>
  z.object({
    billNo: rewardBillNo,
    userId,
    projectName,
    level,
    /** Tickets credited. */
    amount: tickets,
    walletAddress: z.optional(suiAddress),
  }),
);
export type RewardBody = z.infer<typeof RewardBody>;

/** vendor/signature: the payment request, its BCS bytes and the stage key's signature over them. */
export const PaymentSignature = z.lazy(() =>
  z.object({
    bill_no: answered.billNo,
    amount: answered.coins,
    amount_base: answered.baseUnits,
    recipient: answered.recipient,
    coin_type: answered.coinType,
    expires_at_ms: z.int(),
    /** BCS of `{bill_no, amount, recipient, coin_type, expires_at_ms}`, hex. */
    message: z.string(),
    /** 64-byte r||s (low s), base64. */
    signature: z.string(),
    /** 33-byte compressed P-256 key, base64. */
    public_key: z.string(),
    scheme: z.literal('secp256r1-sha256'),
  }),
);
export type PaymentSignature = z.infer<typeof PaymentSignature>;
