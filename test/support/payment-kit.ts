import { receipt } from '../../tools/local/dev-chain/payment-kit.js';
import { type ChainScript, randomAddress, randomDigest, SUI, type ScriptEvent } from './sui-node.js';

/**
 * Payment Kit receipts on the tests' scripted chain (the receipt itself: tools/local/dev-chain/payment-kit.ts),
 * each in a new transaction at a clock of its own.
 */

export { KIT_PACKAGE, RECEIPT_TYPE } from '../../tools/local/dev-chain/payment-kit.js';

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
  return {
    txDigest: options.txDigest ?? randomDigest(),
    eventSeq: options.eventSeq ?? 0,
    sender: options.sender ?? randomAddress(),
    timestampMs: String(clock),
    ...receipt({
      nonce: options.nonce,
      amount: options.amount,
      receiver: options.receiver,
      coinType: options.coinType ?? SUI,
      registry: options.registry ?? randomAddress(),
      timestampMs: String(clock),
    }),
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
