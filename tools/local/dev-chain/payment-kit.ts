import { bcs } from '@mysten/sui/bcs';
import { fullCoinType, type ScriptEvent } from './chain-script.js';
import type { MoveCall, MoveFunction } from './transactions.js';

/**
 * Sui Payment Kit receipts, as the standard's Move code emits them (docs/api.md "Payments through the Sui Payment Kit"):
 * `PaymentReceipt { payment_type: PaymentType, nonce: ascii::String, payment_amount: u64, receiver: address,
 * coin_type: ascii::String, timestamp_ms: u64 }`, where `PaymentType` is the enum `Ephemeral | Registry(ID)` and
 * `coin_type` is `type_name::with_defining_ids<T>()` as text (64 hex digits, no 0x). JSON-RPC renders the enum
 * `{variant, fields: {pos0}}`; renderMoveJson turns it into the GraphQL and gRPC rendering from the layout.
 *
 * The development chain runs the kit's ephemeral payment at Mysten's testnet address, so a wallet builds the
 * same transaction for testnet and for the development chain.
 */

/** Mysten's testnet deployment (the SDK's TESTNET_PAYMENT_KIT_PACKAGE_CONFIG). */
export const KIT_PACKAGE = '0x7e069abe383e80d32f2aec17b3793da82aabc8c2edf84abbf68dd7b719e71497';
export const RECEIPT_TYPE = `${KIT_PACKAGE}::payment_kit::PaymentReceipt`;

const ZERO = '0'.repeat(63);
const u8Vector = { vector: 'u8' };
const asciiString = { struct: { type: `0x${ZERO}1::ascii::String`, fields: [{ name: 'bytes', layout: u8Vector }] } };
const objectId = { struct: { type: `0x${ZERO}2::object::ID`, fields: [{ name: 'bytes', layout: 'address' }] } };

const receiptLayout = {
  struct: {
    type: RECEIPT_TYPE,
    fields: [
      {
        name: 'payment_type',
        layout: {
          enum: [
            {
              type: `${KIT_PACKAGE}::payment_kit::PaymentType`,
              variants: [
                { name: 'Ephemeral', fields: [] },
                { name: 'Registry', fields: [{ name: 'pos0', layout: objectId }] },
              ],
            },
          ],
        },
      },
      { name: 'nonce', layout: asciiString },
      { name: 'payment_amount', layout: 'u64' },
      { name: 'receiver', layout: 'address' },
      { name: 'coin_type', layout: asciiString },
      { name: 'timestamp_ms', layout: 'u64' },
    ],
  },
};

export interface Receipt {
  nonce: string;
  amount: string;
  receiver: string;
  coinType: string;
  /** The registry's object id, or `ephemeral`. */
  registry: string;
  timestampMs: string;
}

/** The receipt's type, fields and layout, as an event of a transaction emits it. */
export function receipt(fields: Receipt): Pick<ScriptEvent, 'type' | 'parsedJson' | 'layout'> {
  return {
    type: RECEIPT_TYPE,
    parsedJson: {
      payment_type: fields.registry === 'ephemeral' ? { variant: 'Ephemeral', fields: {} } : { variant: 'Registry', fields: { pos0: fields.registry } },
      nonce: fields.nonce,
      payment_amount: fields.amount,
      receiver: fields.receiver,
      coin_type: fullCoinType(fields.coinType).slice(2),
      timestamp_ms: fields.timestampMs,
    },
    layout: receiptLayout,
  };
}

/**
 * `process_ephemeral_payment<T>(nonce: String, payment_amount: u64, coin: Coin<T>, receiver: address, clock:
 * &Clock)`: the coin must hold exactly the amount; it goes to the receiver and the receipt is emitted.
 */
const processEphemeralPayment: MoveFunction = (call: MoveCall) => {
  const [nonce, amount, coin, receiver] = call.args;
  const coinType = call.typeArguments[0];
  if (nonce?.kind !== 'pure' || amount?.kind !== 'pure' || receiver?.kind !== 'pure' || coin?.kind !== 'coin' || coin.spent || !coinType) {
    return call.abort(1, 'EInvalidArguments');
  }
  const paymentAmount = BigInt(bcs.u64().parse(amount.bytes));
  if (coin.balance !== paymentAmount || fullCoinType(coin.coinType) !== coinType) return call.abort(0, 'EPaymentAmountMismatch');
  coin.spent = true;
  const to = bcs.Address.parse(receiver.bytes);
  call.give(to, coinType, paymentAmount);
  call.emit(
    receipt({
      nonce: bcs.string().parse(nonce.bytes),
      amount: paymentAmount.toString(),
      receiver: to,
      coinType,
      registry: 'ephemeral',
      timestampMs: String(call.nowMs),
    }),
  );
};

/** The kit's functions the development chain runs, by full name. */
export const paymentKitFunctions = new Map<string, MoveFunction>([[`${KIT_PACKAGE}::payment_kit::process_ephemeral_payment`, processEphemeralPayment]]);
