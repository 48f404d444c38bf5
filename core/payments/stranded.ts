import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { canonicalType } from '../chain/names.js';
import type { PaymentsDeps } from './deps.js';
import { platformError } from '../platform/errors.js';
import { paymentError } from './errors.js';
import { queryItems } from '../platform/query.js';
import { AGAIN, retrying } from '../platform/retry.js';
import { ConcurrentChange, transactOrFailedConditions, type TransactItem } from '../platform/transactions.js';
import type { TokenClaims } from '../platform/tokens.js';
import { OrderStatus, StrandedPayment, StrandedStatus, type StrandedQuery } from './models.js';
import { nullByDefault, objectOf } from '../shared/records.js';
import { orderIdOfBill, orderKey, StoredOrder, strandedKey, strandedOfProjectPartition, strandedToAddressPartition } from './order-keys.js';
import { projectKey } from '../access/keys.js';
import { storedProject, type StoredProject } from './projects.js';

/**
 * What a payment on chain means for the orders (docs/api.md, "Payments and tickets"), decided once, when the payment
 * is stored, in the same transaction that stores it:
 * - it **matches** the open order its bill names when that order is pending, has no payment yet, and the
 *   payment is in the order's coin, of exactly its amount, to its receiving address. The order is marked with
 *   the payment (`payment_seen`, the payment's `<txDigest>#<eventSeq>`): from then on it cannot be cancelled
 *   (rechargeOrder's cancel is conditional on `payment_seen` being absent), and only this payment completes it;
 * - any other payment is **stranded**: kept as a stranded payment record for the merchant, who credits it
 *   (the order's tickets to the order's user; a still-open order is completed by it) or records that it was
 *   refunded on chain (stranded-settlement.ts). Nothing indexed is ever dropped.
 *
 * Keys (docs/data-model.md):
 * - "stranded payment by its payment": pk `STRANDED#<txDigest>#<eventSeq>`, sk `STRANDED` (one per payment:
 *   the idempotent store, and what credit and refund address);
 * - "stranded payments of a project, newest first": gsi1pk `STRANDED_OF#<project>`, gsi1sk
 *   `<time on chain>#<txDigest>#<eventSeq>`, for payments whose bill names an order of the project;
 * - "stranded payments to an address, newest first": gsi1pk `STRANDED_TO#<address>`, same sort key, for
 *   payments whose bill names no order (listed for the project whose receiving address it is);
 * - "refund transaction used": pk `REFUNDTX#<digest>`, sk `REFUNDTX` (a refund is recorded for one payment).
 *
 * Contention (docs/data-model.md "Transactions and contention: what each touches"): every transaction here holds only
 * per-payment and per-player items (the payment, its stranded record, the order, the user's balance and ledger);
 * never a project, merchant or counter item. Ownership of the project is read, not a ConditionCheck.
 */

/** Why a payment matched no open order. */
export type StrandedReason = 'no_order' | 'order_cancelled' | 'order_paid' | 'order_refunded' | 'coin_unknown' | 'coin' | 'amount' | 'address' | 'duplicate';

type RecordDeps = Pick<PaymentsDeps, 'db' | 'table' | 'now'>;

/** A payment being stored (built by core/payments/chain-payments.ts storePaymentEvent). */
export interface IncomingPayment {
  /** The payment event item to put, keys included. */
  item: Record<string, unknown>;
  paymentId: number;
  billNo: string;
  /** Base units, decimal text. */
  amount: string;
  /** Addresses in full lower case. */
  from: string;
  to: string;
  /** Full form, or null when it could not be verified. */
  coinType: string | null;
  coinProblem?: string | undefined;
  txDigest: string;
  eventSeq: string;
  /** Time on chain, else when indexed (ISO). */
  time: string;
}

type Verdict = { matched: true } | { matched: false; reason: StrandedReason; detail: string };

const ATTEMPTS = 5;

/**
 * Stores a payment once, matched to its open order or kept as stranded (see above), in one transaction; the
 * stored payment item. When the order changes between the read and the write (the player cancels it, another
 * payment matches it first), the transaction is refused and the payment judged again against the new state.
 */
export async function recordPayment(deps: RecordDeps, payment: IncomingPayment): Promise<Record<string, unknown>> {
  const orderId = orderIdOfBill(payment.billNo);
  const position = `${payment.txDigest}#${payment.eventSeq}`;
  return retrying(
    async () => {
      const order = orderId === undefined ? undefined : await readOrder(deps, orderId, JudgedOrder);
      const verdict = judge(order, payment, position);
      const item = {
        ...payment.item,
        matched: verdict.matched,
        ...(order ? { order_id: order.id } : {}),
        ...(verdict.matched ? {} : { stranded_reason: verdict.reason }),
      };
      const items: TransactItem[] = [{ Put: { TableName: deps.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }];
      if (verdict.matched) {
        items.push({
          Update: {
            TableName: deps.table,
            Key: orderKey(order!.id),
            UpdateExpression: 'SET payment_seen = :position',
            ConditionExpression: '#status = :pending AND attribute_not_exists(payment_seen)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':position': position, ':pending': OrderStatus.pending },
          },
        });
      } else {
        items.push({ Put: { TableName: deps.table, Item: strandedItem(deps, payment, order, verdict), ConditionExpression: 'attribute_not_exists(pk)' } });
      }
      let failed: number[];
      try {
        failed = await transactOrFailedConditions(deps, items, `payment ${position}: its order changed concurrently; retry`);
      } catch (error) {
        // Kept colliding: with others storing this same payment (concurrent orderComplete fallbacks read the
        // same transaction), one of which may have stored it; that record stands.
        if (!(error instanceof ConcurrentChange)) throw error;
        const stored = await storedPayment(deps, payment);
        if (stored) return stored;
        throw error;
      }
      if (failed.length === 0) return item;
      if (failed.includes(0)) {
        // Stored before (a re-read page, the orderComplete fallback): that record stands.
        const stored = await storedPayment(deps, payment);
        if (stored) return stored;
      }
      // The order changed meanwhile: judged again on a fresh read.
      return AGAIN;
    },
    {
      attempts: ATTEMPTS,
      pause: false,
      giveUp: () => {
        throw platformError('data.changed_concurrently', `payment ${position}: its order kept changing; retry`);
      },
    },
  );
}

async function storedPayment(deps: RecordDeps, payment: IncomingPayment): Promise<Record<string, unknown> | undefined> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: { pk: payment.item.pk, sk: payment.item.sk }, ConsistentRead: true }));
  return out.Item;
}

/** What judging a payment reads of the order its bill names ("order by id", order-keys.ts). */
const JudgedOrder = z.lazy(() =>
  z.pick(objectOf(StoredOrder), {
    id: true,
    status: true,
    coin_type: true,
    amount_base: true,
    receive_address: true,
    payment_seen: true,
    project_name: true,
    user_id: true,
  }),
);
type JudgedOrder = z.infer<typeof JudgedOrder>;

export async function readOrder<T>(deps: RecordDeps, id: number, model: z.ZodMiniType<T>): Promise<T | undefined> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: orderKey(id), ConsistentRead: true }));
  return out.Item && model.parse(out.Item);
}

const fullAddress = (address: string) =>
  /^0x[0-9a-fA-F]{1,64}$/.test(address) ? `0x${address.slice(2).toLowerCase().padStart(64, '0')}` : address.toLowerCase();

/** Whether the payment is the open order's, and if not, why not. */
function judge(order: JudgedOrder | undefined, payment: IncomingPayment, position: string): Verdict {
  const stranded = (reason: StrandedReason, detail: string): Verdict => ({ matched: false, reason, detail });
  if (!order) return stranded('no_order', `no order has bill ${payment.billNo}`);
  if (order.status === OrderStatus.cancelled) return stranded('order_cancelled', `order ${order.id} was cancelled before the payment arrived`);
  if (order.status === OrderStatus.paid) return stranded('order_paid', `order ${order.id} was already paid`);
  if (order.status !== OrderStatus.pending) return stranded('order_refunded', `order ${order.id} is not open (status ${order.status})`);
  if (payment.coinType === null) return stranded('coin_unknown', `the coin paid could not be verified: ${payment.coinProblem ?? 'unknown'}`);
  if (payment.coinType !== canonicalType(order.coin_type)) {
    return stranded('coin', `paid in ${payment.coinType}; order ${order.id} is paid in ${order.coin_type}`);
  }
  if (BigInt(payment.amount) !== BigInt(order.amount_base)) {
    return stranded('amount', `paid ${payment.amount} base units; order ${order.id} costs ${order.amount_base}`);
  }
  if (payment.to !== fullAddress(order.receive_address)) return stranded('address', `paid ${payment.to}, not the project's address ${order.receive_address}`);
  if (order.payment_seen !== undefined && order.payment_seen !== position) {
    return stranded('duplicate', `order ${order.id} already has payment ${order.payment_seen}`);
  }
  return { matched: true };
}

function strandedItem(deps: RecordDeps, payment: IncomingPayment, order: JudgedOrder | undefined, verdict: Verdict & { matched: false }) {
  const now = deps.now().toISOString();
  const position = `${payment.txDigest}#${payment.eventSeq}`;
  return {
    ...strandedKey(payment.txDigest, payment.eventSeq),
    type: 'stranded_payment',
    payment_id: payment.paymentId,
    bill_no: payment.billNo,
    amount: payment.amount,
    coin_type: payment.coinType,
    fromer: payment.from,
    toer: payment.to,
    tx_digest: payment.txDigest,
    event_seq: payment.eventSeq,
    paid_at: payment.time,
    order_id: order?.id ?? null,
    project_name: order?.project_name ?? null,
    user_id: order?.user_id ?? null,
    reason: verdict.reason,
    detail: verdict.detail,
    status: StrandedStatus.stranded,
    refund_digest: null,
    created_at: now,
    updated_at: now,
    gsi1pk: order ? strandedOfProjectPartition(order.project_name) : strandedToAddressPartition(payment.to),
    gsi1sk: `${payment.time}#${position}`,
  };
}

/**
 * "a stranded payment" (strandedKey) and its lists (gsi1): the API's record under the stored names of the
 * payment's id and position; the nullable attributes read null when absent.
 */
export const StoredStranded = z.lazy(() =>
  z.extend(z.omit(objectOf(StrandedPayment), { id: true, cursor: true }), {
    payment_id: z.int(),
    tx_digest: z.string(),
    event_seq: z.string(),
    coin_type: nullByDefault(z.string()),
    order_id: nullByDefault(z.int()),
    project_name: nullByDefault(z.string()),
    user_id: nullByDefault(z.string()),
    refund_digest: nullByDefault(z.string()),
  }),
);

export function toStrandedPayment(item: Record<string, unknown>): StrandedPayment {
  const { payment_id, tx_digest, event_seq, bill_no, amount, coin_type, fromer, toer, ...rest } = StoredStranded.parse(item);
  return { id: payment_id, bill_no, amount, coin_type, fromer, toer, cursor: { txDigest: tx_digest, eventSeq: event_seq }, ...rest };
}

/**
 * The named project, read for its receiving address. That it is the caller's merchant's is the route's policy
 * (`owns.project`), checked by the authorization layer before the handler.
 */
async function projectNamed(deps: Pick<PaymentsDeps, 'db' | 'table'>, name: string): Promise<StoredProject> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: projectKey(name) }));
  const project = storedProject(out.Item);
  if (!project) throw paymentError('project.not_found', `project_name: no project ${name}`);
  return project;
}

/**
 * Whether a stranded payment is the project's to handle: it names an order of the project, or it names no
 * order and was paid to the project's (current) receiving address. The second half of the ownership rule.
 */
export function belongsTo(item: Record<string, unknown>, project: StoredProject): boolean {
  if (item.project_name !== null && item.project_name !== undefined) return item.project_name === project.project_name;
  return item.toer === fullAddress(project.receive_address);
}

/** The most stranded payments listed per partition (newest first). */
const LIST_LIMIT = 1000;

/** The project's stranded payments, newest first (two Queries in parallel: by order's project, by address). */
export async function listStranded(deps: PaymentsDeps, _caller: TokenClaims, input: z.infer<typeof StrandedQuery>) {
  const project = await projectNamed(deps, input.project);
  const query = (pk: string) =>
    queryItems(
      deps,
      {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ScanIndexForward: false,
        ...(input.status === undefined
          ? { ExpressionAttributeValues: { ':pk': pk } }
          : {
              FilterExpression: '#status = :status',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':pk': pk, ':status': input.status },
            }),
      },
      LIST_LIMIT,
    );
  const [ofOrders, toAddr] = await Promise.all([
    query(strandedOfProjectPartition(project.project_name)),
    query(strandedToAddressPartition(fullAddress(project.receive_address))),
  ]);
  const items = [...ofOrders, ...toAddr].sort((a, b) => String(b.gsi1sk).localeCompare(String(a.gsi1sk)));
  const { page, pageSize } = input;
  return { total: String(items.length), payments: items.slice(page * pageSize, (page + 1) * pageSize).map(toStrandedPayment) };
}
