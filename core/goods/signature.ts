import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { objectOf } from '../shared/records.js';
import { OrderStatus } from '../payments/models.js';
import { formatUnits } from '../payments/money.js';
import { toBigInt } from '../shared/amounts.js';
import { orderIdOfBill, orderKey, StoredOrder } from '../payments/order-keys.js';
import type { PlatformDeps } from '../platform/deps.js';
import { paymentError } from '../payments/errors.js';
import { vendorKeyMissing, type TokenClaims } from '../platform/tokens.js';
import type { PaymentSignature } from './models.js';

/**
 * vendor/signature: a payment request for a pending pay order, signed with the stage's vendor key (the
 * VendorSigningKey secret, `vendor-key.json` in DATA_DIR locally; a key of its own, never a token key) so the
 * vendor's Move contract can check it before taking the payment:
 *
 *   public struct PaymentRequest has drop { bill_no: String, amount: u64, recipient: address,
 *                                           coin_type: String, expires_at_ms: u64 }
 *   assert!(ecdsa_r1::secp256r1_verify(&signature, &PLATFORM_KEY, &bcs::to_bytes(&request), 1), EBadSignature);
 *
 * (hash 1 = SHA-256). `coin_type` is in the form `type_name::get<T>().into_string()` renders
 * (64 hex digits without 0x), so the contract compares it with the paid coin's type as bytes.
 * `expires_at_ms` is 10 minutes on, compared with `clock.timestamp_ms()`. A stage without a vendor key answers 503
 * before reading anything.
 */
export const PAYMENT_REQUEST_TTL_MS = 10 * 60_000;

export interface PaymentRequest {
  bill_no: string;
  /** Base units, decimal text. */
  amount: string;
  recipient: string;
  coin_type: string;
  expires_at_ms: number;
}

/** What a payment request reads of a pay order ("order by id", core/payments/order-keys.ts). */
const SignedOrder = z.lazy(() =>
  z.pick(objectOf(StoredOrder), { user_id: true, status: true, amount_base: true, receive_address: true, coin_type: true, precison: true }),
);

export async function signPaymentRequest(deps: PlatformDeps, caller: TokenClaims, billNo: string): Promise<PaymentSignature> {
  const signer = deps.tokens.vendor;
  if (!signer) throw vendorKeyMissing();
  const orderId = orderIdOfBill(billNo);
  const item =
    orderId === undefined ? undefined : (await deps.db.send(new GetCommand({ TableName: deps.table, Key: orderKey(orderId), ConsistentRead: true }))).Item;
  const order = item && SignedOrder.parse(item);
  // Another player's order is as unknown as a missing one.
  if (!order || order.user_id !== caller.sub) throw paymentError('order.not_found', `billNo: no order ${billNo}`);
  if (order.status !== OrderStatus.pending) throw paymentError('order.not_pending', `billNo: order ${billNo} is not pending`);

  const request: PaymentRequest = {
    bill_no: billNo,
    amount: toBigInt(order.amount_base).toString(),
    recipient: order.receive_address,
    coin_type: moveTypeName(order.coin_type),
    expires_at_ms: deps.now().getTime() + PAYMENT_REQUEST_TTL_MS,
  };
  const message = await paymentRequestBytes(request);
  const signature = await signer.sign(message);
  return {
    ...request,
    amount: formatUnits(request.amount, order.precison),
    amount_base: request.amount,
    message: Buffer.from(message).toString('hex'),
    signature: Buffer.from(signature).toString('base64'),
    public_key: Buffer.from(signer.publicKey).toString('base64'),
    scheme: 'secp256r1-sha256',
  };
}

/** BCS of the PaymentRequest struct above: field order and types must stay those of the Move struct. */
export async function paymentRequestBytes(request: PaymentRequest): Promise<Uint8Array> {
  // Loaded on first use: only this operation needs the SDK's BCS.
  const { bcs } = await import('@mysten/sui/bcs');
  return bcs
    .struct('PaymentRequest', { bill_no: bcs.string(), amount: bcs.u64(), recipient: bcs.Address, coin_type: bcs.string(), expires_at_ms: bcs.u64() })
    .serialize(request)
    .toBytes();
}

/** `0x2::sui::SUI` → `0000…0002::sui::SUI`: every address in the type full-length, lower case, without 0x. */
export function moveTypeName(coinType: string): string {
  return coinType.replace(/0x([0-9a-fA-F]{1,64})(?=::)/g, (_, hex: string) => hex.toLowerCase().padStart(64, '0'));
}
