import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { PaymentsDeps } from './deps.js';
import { queryItems } from '../platform/query.js';
import { orderIdOfBill, orderKey } from './order-keys.js';
import { canonicalType } from '../chain/names.js';
import type { ChainEvent, PaymentKitConfig } from '../chain/types.js';

/**
 * The Sui Payment Kit (github.com/MystenLabs/sui-payment-kit), Mysten's payment standard: a Move package
 * deployed on testnet and mainnet whose `process_registry_payment<T>` moves a coin of exactly `payment_amount`
 * to `receiver`, writes a payment record in a registry (which refuses a second payment of the same nonce,
 * amount, receiver and coin) and emits a `PaymentReceipt` event. A project takes such payments with no Move
 * code of its own: getDepositaddress answers the order's payment URI, any wallet that speaks the standard
 * pays it, and the receipt is stored as the order's payment record.
 *
 * The SDK (`@mysten/payment-kit`) is not used: its only published release (0.0.20) depends on
 * `@mysten/sui` 1.x, which cannot sit beside 2.x in one bundle. The two formats it would give us are small
 * and written here from the standard's sources: the URI (the SDK's `createPaymentTransactionUri`) and the
 * receipt event (the Move struct `payment_kit::PaymentReceipt`).
 */

/** The receipt event's Move type: `<package>::payment_kit::PaymentReceipt`, addresses in full. */
export const receiptType = (config: PaymentKitConfig) => canonicalType(`${config.packageId}::payment_kit::PaymentReceipt`);

/** The standard's nonce limit (`validate_nonce`: 1 to 36 characters); a bill number (`PO` + 10 digits) fits. */
export const NONCE_MAX = 36;

/**
 * The payment transaction URI of the standard: `sui:pay?receiver=…&amount=…&coinType=…&nonce=…&registry=…`,
 * parameters in that order and query-encoded (`::` as `%3A%3A`), as the SDK's `createPaymentTransactionUri`
 * writes it. `registry` is the registry's object id or its name; wallets resolve a name.
 */
export function paymentUri(params: { receiver: string; amount: bigint; coinType: string; nonce: string; registry: string }): string {
  if (params.amount <= 0n) throw new Error('payment URI: the amount must be positive');
  if (params.nonce.length === 0 || params.nonce.length > NONCE_MAX) throw new Error(`payment URI: the nonce must be 1-${NONCE_MAX} characters`);
  const query = new URLSearchParams([
    ['receiver', params.receiver],
    ['amount', params.amount.toString()],
    ['coinType', params.coinType],
    ['nonce', params.nonce],
    ['registry', params.registry],
  ]);
  return `sui:pay?${query.toString()}`;
}

/**
 * A receipt's fields in the layout of our payment event (core/payments/chain-payments.ts reads them): the nonce is the
 * bill number, `payment_amount` the amount, `receiver` who was paid, the transaction's sender the payer (the
 * receipt does not name one), `coin_type` the coin as `type_name` renders it (no 0x). What the receipt says was
 * moved on chain: the Move code aborts unless the coin is exactly `payment_amount`, and transfers it to
 * `receiver` (or keeps it in the registry, which is then the receiver), so the receipt alone proves the
 * payment, whichever registry (or none: an ephemeral payment) it went through.
 */
export function receiptAsPayment(event: ChainEvent): Record<string, unknown> {
  const json = event.parsedJson;
  return { bill_no: json.nonce, amount: json.payment_amount, from: event.sender, to: json.receiver, coin_type: json.coin_type };
}

/**
 * Which registry a receipt went through, for the stored record (audits): its id, `ephemeral`, or undefined
 * when the enum is rendered in a way not known here. JSON-RPC renders the `PaymentType` enum as
 * `{variant, fields: {pos0}}`, GraphQL and gRPC as `{"@variant", pos0}`.
 */
export function receiptRegistry(event: ChainEvent): string | undefined {
  const type = event.parsedJson.payment_type;
  if (typeof type !== 'object' || type === null) return undefined;
  const value = type as { variant?: unknown; '@variant'?: unknown; fields?: { pos0?: unknown }; pos0?: unknown };
  const variant = value.variant ?? value['@variant'];
  if (variant === 'Ephemeral') return 'ephemeral';
  const id = value.fields?.pos0 ?? value.pos0;
  return variant === 'Registry' && typeof id === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(id) ? `0x${id.slice(2).toLowerCase().padStart(64, '0')}` : undefined;
}

type FilterDeps = Pick<PaymentsDeps, 'db' | 'table'>;

/** How long the stage's receiving addresses are kept before they are read again. */
const ADDRESSES_TTL_MS = 60_000;

/**
 * Whether a receipt pays this stage: the Payment Kit package is shared by every merchant on Sui, so its
 * receipt stream holds everyone's payments, and only those to one of our projects' receiving addresses are
 * stored (as payments, matched or stranded, like our own event's). The addresses are read once a minute (one
 * Query of the projects index); a receipt whose nonce names one of our orders is also ours when it pays that
 * order's address (one GetItem), which covers a project created since the addresses were read.
 */
export function receiptFilter(deps: FilterDeps): (event: ChainEvent) => Promise<boolean> {
  let addresses: { set: Set<string>; at: number } | undefined;
  const stageAddresses = async () => {
    if (!addresses || Date.now() - addresses.at > ADDRESSES_TTL_MS) {
      const items = await queryItems(deps, {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': 'PROJECTS' },
        ProjectionExpression: 'receive_address',
      });
      addresses = { set: new Set(items.map((item) => fullAddress(item.receive_address))), at: Date.now() };
    }
    return addresses.set;
  };
  return async (event) => {
    const to = fullAddress(event.parsedJson.receiver);
    if (!to) return false;
    if ((await stageAddresses()).has(to)) return true;
    const orderId = typeof event.parsedJson.nonce === 'string' ? orderIdOfBill(event.parsedJson.nonce) : undefined;
    if (orderId === undefined) return false;
    const order = await deps.db.send(
      new GetCommand({ TableName: deps.table, Key: orderKey(orderId), ProjectionExpression: 'receive_address', ConsistentRead: true }),
    );
    return fullAddress(order.Item?.receive_address) === to;
  };
}

const fullAddress = (value: unknown) =>
  typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value) ? `0x${value.slice(2).toLowerCase().padStart(64, '0')}` : '';
