import { GetCommand, PutCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { nextId } from '../platform/counters.js';
import type { PaymentsDeps } from './deps.js';
import { isConditionalFailure } from '../platform/conditional-failure.js';
import { queryItems } from '../platform/query.js';
import { logError } from '../platform/log.js';
import { sortableInt } from '../platform/table.js';
import { billFirstPaymentPartition, payerPartition, paymentKey, transactionPaymentsPartition } from './order-keys.js';
import { recordPayment } from './stranded.js';
import { ChainNodeError, chainUnreadable, readForRequest } from '../chain/errors.js';
import { VendorEventType, VendorPaymentEvent } from '../chain/models.js';
import { objectOf } from '../shared/records.js';
import { receiptAsPayment, receiptFilter, receiptRegistry, receiptType } from './payment-kit.js';
import { canonicalType } from '../chain/names.js';
import type { BalanceChange, ChainEvent } from '../chain/types.js';

/**
 * Payments on chain, as vendor payment event records.
 *
 * Our Move payment event (the stage's `paymentEventType`, emitted by its `paymentFunction`) has these fields,
 * read from the event's parsedJson:
 *   bill_no: the bill number the payment is for: a Move `String` (JSON text) or `vector<u8>` (an array of
 *            byte values, decoded as UTF-8); 1 to 128 characters.
 *   amount:  u64, the amount paid in the coin's base units (JSON text, as nodes render u64; a JSON number is
 *            accepted too).
 *   from:    address of the payer.
 *   to:      address paid.
 *   coin_type (optional): the coin paid, as the contract knows it: a Move `String`/`ascii::String` such as
 *            `0x2::sui::SUI` or `std::type_name`'s rendering (`000…002::sui::SUI`, no 0x), or a `TypeName`
 *            struct (`{name: …}`). A contract that does not emit it is still accepted: the coin is then read
 *            from the transaction's balance changes (see coinFromBalanceChanges). Either way every stored
 *            payment carries the coin it was verified to be paid in, or none when it could not be (such a
 *            payment never completes an order).
 * Any other field is ignored. An event without bill_no, amount, from and to is skipped and logged, never
 * stored and never fatal. A Sui Payment Kit receipt (core/payments/payment-kit.ts) is read as such an event:
 * nonce as bill_no, payment_amount as amount, the transaction's sender as from, receiver as to, and its
 * coin_type; it is then stored and matched exactly like our own event.
 *
 * Access patterns (docs/data-model.md):
 * - "payment events of a bill", and the idempotent store: pk `BILL#<billNo>`, sk `PAY#<txDigest>#<eventSeq>`
 *   (the event's position on chain, so storing it again hits the same item);
 * - "payment events of a transaction": gsi1pk `TX#<txDigest>`, gsi1sk the eventSeq zero-padded;
 * - "a payer's payment events, newest first": gsi2pk `PAYER#<from>`, gsi2sk `<created_at>#<txDigest>#<eventSeq>`;
 * - "the first payment of a bill": gsi3pk `BILL_PAY#<billNo>`, gsi3sk `<time on chain>#<txDigest>#<eventSeq>`
 *   (time on chain when the node gives it, else created_at), so one Query with Limit 1 finds it.
 */

/** What storing needs: the table, and the chain when the stage has one (for balance changes). */
type StoreDeps = Pick<PaymentsDeps, 'db' | 'table' | 'now'> & Partial<Pick<PaymentsDeps, 'chain'>>;

/** The fields of a payment event, normalised: amount as canonical decimal text, addresses in full lower case. */
export interface Payment {
  billNo: string;
  amount: string;
  from: string;
  to: string;
  /** The event's coin_type in full form (canonicalType); absent when the event has none. */
  coinType?: string;
  /** Why the event's coin_type could not be read, when it has one that is not a coin type. */
  coinProblem?: string;
}

/**
 * A stored payment as the payment flows read it ("a payment of a bill", paymentKey; "a transaction's payments",
 * gsi1 `TX#<digest>`): the contract's record plus what the platform checked.
 */
export const IndexedPayment = z.lazy(() =>
  z.extend(objectOf(VendorPaymentEvent), {
    /** The coin it was paid in (full form), or null (absent) when neither the event nor the transaction tells. */
    coin_type: z._default(z.nullable(z.string()), null),
    /** It matched its bill's open order when it was stored: that order then carries it (and cannot be cancelled). */
    matched: z._default(z.boolean(), false),
  }),
);
export type IndexedPayment = z.infer<typeof IndexedPayment>;

const U64_MAX = 2n ** 64n - 1n;
const BILL_NO_MAX = 128;

/**
 * The payment an event records, or undefined when the event is not in the layout above.
 * @internal exported for its unit tests (test/chain.test.ts), which try layouts no indexer run meets.
 */
export function parsePayment(event: ChainEvent): Payment | undefined {
  const read = readPayment(event);
  return typeof read === 'string' ? undefined : read;
}

/**
 * The payment, or the reason the event is not one (for the log). `json` is the event's fields in our layout:
 * its parsedJson, or a Payment Kit receipt's fields renamed to it (payment-kit.ts receiptAsPayment).
 */
function readPayment(event: ChainEvent, json: Record<string, unknown> = event.parsedJson): Payment | string {
  if (!/^\d{1,6}$/.test(event.eventSeq)) return 'eventSeq: expected a small integer';
  const billNo = readBillNo(json.bill_no);
  if (billNo === undefined) return `bill_no: expected text or UTF-8 bytes of 1-${BILL_NO_MAX} characters`;
  const amount = readU64(json.amount);
  if (amount === undefined) return 'amount: expected a u64';
  const from = readAddress(json.from);
  if (from === undefined) return 'from: expected an address';
  const to = readAddress(json.to);
  if (to === undefined) return 'to: expected an address';
  if (json.coin_type === undefined || json.coin_type === null) return { billNo, amount, from, to };
  const coinType = readCoinType(json.coin_type);
  return coinType === undefined ? { billNo, amount, from, to, coinProblem: 'coin_type: not a coin type' } : { billNo, amount, from, to, coinType };
}

const COIN_TYPE = /^(?:0x)?[0-9a-fA-F]{1,64}::\w+::\w+(?:<.+>)?$/;

/**
 * A coin type as an event may carry it: text (`0x2::sui::SUI`, or type_name's `000…002::sui::SUI` without 0x)
 * or a TypeName struct `{name}`; answered in full form (canonicalType), or undefined when it is none.
 */
export function readCoinType(value: unknown): string | undefined {
  const text = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { name?: unknown }).name : value;
  if (typeof text !== 'string' || text.length > 512 || !COIN_TYPE.test(text)) return undefined;
  // type_name renders addresses without 0x, at the start and inside type arguments.
  return canonicalType(text.replace(/(^|[<,\s])(?:0x)?([0-9a-fA-F]{1,64})(?=::)/g, (_, before: string, hex: string) => `${before}0x${hex}`));
}

/**
 * The coin a payment of `amount` to `to` was made in, from its transaction's balance changes (for a contract
 * whose event does not name the coin): the one coin type of which `to` gained at least `amount`. None, or more
 * than one (a second coin sent to the same address in the same transaction), leaves the coin unknown: such a
 * payment is kept (stranded) and never completes an order.
 */
export function coinFromBalanceChanges(changes: BalanceChange[], to: string, amount: string): { coinType: string } | { problem: string } {
  const gained = new Map<string, bigint>();
  for (const change of changes) {
    if (change.owner !== to) continue;
    gained.set(change.coinType, (gained.get(change.coinType) ?? 0n) + BigInt(change.amount));
  }
  const candidates = [...gained].filter(([, total]) => total > 0n && total >= BigInt(amount)).map(([coinType]) => coinType);
  if (candidates.length === 1) return { coinType: candidates[0]! };
  if (candidates.length === 0) return { problem: `the transaction's balance changes show no coin of which ${to} gained ${amount}` };
  return { problem: `the transaction's balance changes show ${to} gaining ${amount} in several coins (${candidates.join(', ')})` };
}

function readBillNo(value: unknown): string | undefined {
  let text: string | undefined;
  if (typeof value === 'string') text = value;
  else if (Array.isArray(value) && value.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(value as number[]));
    } catch {
      return undefined;
    }
  }
  // Control characters have no place in a bill number and would only make keys and logs ambiguous.
  if (text === undefined || text.length === 0 || [...text].length > BILL_NO_MAX || /\p{Cc}/u.test(text)) return undefined;
  return text;
}

function readU64(value: unknown): string | undefined {
  let amount: bigint;
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) amount = BigInt(value);
  else if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) amount = BigInt(value);
  else return undefined;
  return amount <= U64_MAX ? amount.toString() : undefined;
}

/** An address in its full form: 0x and 64 lower-case hex digits (nodes may shorten leading zeros). */
export function normalizeAddress(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) return undefined;
  return `0x${value.slice(2).toLowerCase().padStart(64, '0')}`;
}
const readAddress = normalizeAddress;

const ITEM_TYPE = 'payment_event';

/**
 * Stores the payment event as a vendor payment event record, once: the item's key is the event's place on
 * chain, written on condition that it is new, so a re-read page, a second indexer run or the orderComplete
 * fallback storing the same event finds the first record and returns it. An event that is not a payment in
 * our layout is logged and skipped (undefined). `eventType` is the record's event_type (1 payment, 2 reward payout).
 *
 * A payment (event_type 1) is matched against the open order its bill names in the same write
 * (core/payments/stranded.ts recordPayment): it either becomes that order's payment (the order can then not
 * be cancelled) or is kept as a stranded payment for the merchant. Nothing indexed is dropped.
 */
export async function storePaymentEvent(
  deps: StoreDeps,
  event: ChainEvent,
  eventType: number = VendorEventType.payment,
): Promise<VendorPaymentEvent | undefined> {
  const item = await storePayment(deps, event, eventType);
  return item && toRecord(item);
}

/** storePaymentEvent, answering the stored item (undefined for an event not in our layout). */
async function storePayment(deps: StoreDeps, event: ChainEvent, eventType: number): Promise<Record<string, unknown> | undefined> {
  const kit = deps.chain?.config.paymentKit;
  const receipt = kit !== undefined && eventType === VendorEventType.payment && event.type === receiptType(kit);
  const payment = readPayment(event, receipt ? receiptAsPayment(event) : event.parsedJson);
  if (typeof payment === 'string') {
    await logError('chain: event skipped, not a payment in our layout', {
      txDigest: event.txDigest,
      eventSeq: event.eventSeq,
      type: event.type,
      problem: payment,
    });
    return undefined;
  }
  const coin = eventType === VendorEventType.payment ? await coinOf(deps, event, payment) : undefined;
  const key = paymentKey(payment.billNo, event.txDigest, event.eventSeq);
  const now = deps.now().toISOString();
  const chainTime = event.timestampMs && /^\d+$/.test(event.timestampMs) ? new Date(Number(event.timestampMs)).toISOString() : undefined;
  const record: VendorPaymentEvent = {
    // Taken before the conditional put: a duplicate wastes an id (ids are unique, not dense).
    id: await nextId(deps, 'payment_event'),
    bill_no: payment.billNo,
    amount: payment.amount,
    fromer: payment.from,
    toer: payment.to,
    event_type: eventType,
    cursor: { eventSeq: event.eventSeq, txDigest: event.txDigest },
    created_at: now,
    updated_at: now,
  };
  const position = `${event.txDigest}#${event.eventSeq}`;
  const item: Record<string, unknown> = {
    ...key,
    type: ITEM_TYPE,
    gsi1pk: transactionPaymentsPartition(event.txDigest),
    gsi1sk: sortableInt(Number(event.eventSeq)),
    gsi2pk: payerPartition(payment.from),
    gsi2sk: `${now}#${position}`,
    gsi3pk: billFirstPaymentPartition(payment.billNo),
    gsi3sk: `${chainTime ?? now}#${position}`,
    ...record,
    // Internal: what the event was on chain, for audits; not part of the contract's record.
    move_type: event.type,
    sender: event.sender,
    chain_time: chainTime,
    // Internal: a Payment Kit receipt's registry (its id, or `ephemeral`), when the payment is one.
    ...(receipt ? { payment_kit_registry: receiptRegistry(event) ?? 'unknown' } : {}),
    // Internal: the coin it was verified to be paid in, and how (or why it could not be).
    ...(coin && 'coinType' in coin ? { coin_type: coin.coinType, coin_from: coin.from } : {}),
    ...(coin && 'problem' in coin ? { coin_problem: coin.problem } : {}),
  };
  if (eventType !== VendorEventType.payment) return putOnce(deps, key, item);
  return recordPayment(deps, {
    item,
    paymentId: record.id,
    billNo: payment.billNo,
    amount: payment.amount,
    from: payment.from,
    to: payment.to,
    coinType: coin && 'coinType' in coin ? coin.coinType : null,
    coinProblem: coin && 'problem' in coin ? coin.problem : undefined,
    txDigest: event.txDigest,
    eventSeq: event.eventSeq,
    time: chainTime ?? now,
  });
}

/** Puts the item on condition it is new; the stored item when it was there already. */
async function putOnce(deps: StoreDeps, key: { pk: string; sk: string }, item: Record<string, unknown>) {
  try {
    await deps.db.send(new PutCommand({ TableName: deps.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    return item;
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    const stored = await deps.db.send(new GetCommand({ TableName: deps.table, Key: key, ConsistentRead: true }));
    return stored.Item!;
  }
}

/**
 * The coin of a payment: the event's coin_type when it has one; else the transaction's balance changes, read
 * from the node (a node that cannot be read is a ChainNodeError: the indexer keeps its place and retries, the
 * orderComplete fallback answers 503); else (no chain) unknown.
 */
async function coinOf(
  deps: StoreDeps,
  event: ChainEvent,
  payment: Payment,
): Promise<{ coinType: string; from: 'event' | 'balance_changes' } | { problem: string }> {
  if (payment.coinType) return { coinType: payment.coinType, from: 'event' };
  if (payment.coinProblem) return { problem: payment.coinProblem };
  if (!deps.chain) return { problem: 'the event names no coin_type and the stage has no chain to read the balance changes from' };
  const changes = await deps.chain.source.balanceChanges(event.txDigest);
  if (!changes) return { problem: `the node does not know transaction ${event.txDigest}` };
  const coin = coinFromBalanceChanges(changes, payment.to, payment.amount);
  return 'coinType' in coin ? { coinType: coin.coinType, from: 'balance_changes' } : coin;
}

/** The contract's fields of a stored item (internal attributes and keys stay inside). */
export const toRecord = (item: Record<string, unknown>): VendorPaymentEvent => VendorPaymentEvent.parse(item);

/** A stored item as the payment flows read it (IndexedPayment). */
export const toIndexed = (item: Record<string, unknown>): IndexedPayment => IndexedPayment.parse(item);

/**
 * The payment records of a transaction, in event order. When none is stored yet and the stage has a chain,
 * the transaction is read from the node and its payment events are stored first (orderComplete must not wait
 * for the indexer); [] when the node does not know the transaction either. A node that cannot be read is 503.
 */
export async function paymentsOfTransaction(deps: Pick<PaymentsDeps, 'db' | 'table' | 'now' | 'chain'>, digest: string): Promise<IndexedPayment[]> {
  const stored = await queryItems(deps, {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    FilterExpression: '#type = :type',
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: { ':pk': transactionPaymentsPartition(digest), ':type': ITEM_TYPE },
  });
  if (stored.length > 0 || !deps.chain) return stored.map(toIndexed);

  const source = deps.chain.source;
  const events = await readForRequest(() => source.transactionEvents(digest), 'transactionId', 'chain: transaction read failed', { digest });
  const { paymentEventType, paymentKit } = deps.chain.config;
  const paymentType = paymentEventType && canonicalType(paymentEventType);
  const kitType = paymentKit && receiptType(paymentKit);
  const ours = kitType ? receiptFilter(deps) : undefined;
  const records: IndexedPayment[] = [];
  try {
    for (const event of events ?? []) {
      // Our own contract's payments, and Payment Kit receipts that pay one of the stage's projects.
      const payment = event.type === paymentType || (event.type === kitType && (await ours!(event)));
      if (!payment) continue;
      const item = await storePayment(deps, event, VendorEventType.payment);
      if (item) records.push(toIndexed(item));
    }
  } catch (error) {
    if (!(error instanceof ChainNodeError)) throw error;
    await logError('chain: balance changes read failed', { digest, error: error.message });
    throw chainUnreadable('transactionId');
  }
  return records;
}

/** The first payment of a bill (earliest on chain), or undefined: vendor_pay_query. */
export async function paymentOfBill(deps: Pick<PaymentsDeps, 'db' | 'table'>, billNo: string): Promise<VendorPaymentEvent | undefined> {
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk',
      ExpressionAttributeValues: { ':pk': billFirstPaymentPartition(billNo) },
      ScanIndexForward: true,
      Limit: 1,
    }),
  );
  const item = out.Items?.[0];
  return item ? toRecord(item) : undefined;
}

/**
 * A payer's payment records, newest first, page `page` (zero-based) of `pageSize`, with how many there are
 * in all. Like gamelist, page p reads (p + 1) * pageSize index entries; the count is a second Query, in parallel.
 */
/** The most payments user/deposit reads for one payer (newest first). */
const PAYER_PAYMENTS_LIMIT = 1000;

export async function paymentsOfPayer(
  deps: Pick<PaymentsDeps, 'db' | 'table'>,
  address: string,
  page: number,
  pageSize: number,
): Promise<{ records: VendorPaymentEvent[]; total: number }> {
  const payer = normalizeAddress(address) ?? address.toLowerCase();
  const query: Omit<QueryCommandInput, 'TableName'> = {
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': payerPartition(payer) },
  };
  // One read gives the page and the total: a payer's payments are few (bounded by PAYER_PAYMENTS_LIMIT).
  const items = await queryItems(deps, { ...query, ScanIndexForward: false }, PAYER_PAYMENTS_LIMIT);
  return { records: items.slice(page * pageSize, (page + 1) * pageSize).map(toRecord), total: items.length };
}
