import { type ChainScript, fullCoinType, randomAddress, randomDigest, SUI, type ScriptEvent } from './sui-node.js';

/**
 * Sui Payment Kit receipts on the scripted chain, as the standard's Move code emits them
 * (sui-payment-kit sources/payment_kit.move): `PaymentReceipt { payment_type: PaymentType, nonce: ascii::String,
 * payment_amount: u64, receiver: address, coin_type: ascii::String, timestamp_ms: u64 }`, where `PaymentType` is
 * the enum `Ephemeral | Registry(ID)` and `coin_type` is `type_name::with_defining_ids<T>()` as text (64 hex
 * digits, no 0x). JSON-RPC renders the enum `{variant, fields: {pos0}}`; renderMoveJson turns it into the
 * GraphQL and gRPC rendering from the layout.
 */

/** Mysten's testnet deployment (the SDK's TESTNET_PAYMENT_KIT_PACKAGE_CONFIG): the receipt type the tests index is the real one. */
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

let clock = Date.UTC(2026, 5, 1);

export interface ReceiptOptions {
  nonce: string;
  amount: string;
  receiver: string;
  /** The payer: the transaction's sender. */
  sender?: string;
  coinType?: string;
  /** The registry's object id, or `ephemeral`; a random registry id unless told. */
  registry?: string;
  txDigest?: string;
  eventSeq?: number;
}

/** A PaymentReceipt event in a new transaction (unless `txDigest` is given). */
export function receiptEvent(options: ReceiptOptions): ScriptEvent {
  clock += 1000;
  const registry = options.registry ?? randomAddress();
  return {
    txDigest: options.txDigest ?? randomDigest(),
    eventSeq: options.eventSeq ?? 0,
    type: RECEIPT_TYPE,
    sender: options.sender ?? randomAddress(),
    parsedJson: {
      payment_type: registry === 'ephemeral' ? { variant: 'Ephemeral', fields: {} } : { variant: 'Registry', fields: { pos0: registry } },
      nonce: options.nonce,
      payment_amount: options.amount,
      receiver: options.receiver,
      coin_type: fullCoinType(options.coinType ?? SUI).slice(2),
      timestamp_ms: String(clock),
    },
    timestampMs: String(clock),
    layout: receiptLayout,
  };
}

/** A wallet paying a payment URI: the receipt, and the transaction's balance changes (the coin moves, gas). */
export function payThroughKit(script: ChainScript, options: ReceiptOptions): ScriptEvent {
  const event = receiptEvent(options);
  const coinType = options.coinType ?? SUI;
  script
    .add(event)
    .changes(
      event.txDigest,
      { owner: event.sender, coinType, amount: `-${options.amount}` },
      { owner: options.receiver, coinType, amount: options.amount },
      { owner: event.sender, coinType: SUI, amount: '-2345678' },
    );
  return event;
}
