import type * as z from 'zod/mini';
import { readForRequest } from '../chain/errors.js';
import type { PaymentsDeps } from './deps.js';
import { platformError } from '../platform/errors.js';
import { paymentError } from './errors.js';
import { isPseudonym } from '../platform/players.js';
import { readItems } from '../platform/batch.js';
import { AGAIN, retrying } from '../platform/retry.js';
import { ConcurrentChange, transactOrFailedConditions, type TransactItem } from '../platform/transactions.js';
import type { TokenClaims } from '../platform/tokens.js';
import { creditItems, creditRefusedAsGone, playerDeleted } from '../tickets/balances.js';
import { OrderStatus, type StrandedPayment, StrandedStatus, type StrandedCreditBody, type StrandedRefundBody } from './models.js';
import { orderPaidUpdate, refundUseKey, StoredOrder, strandedKey } from './order-keys.js';
import { projectKey } from '../access/keys.js';
import { storedProject, type StoredProject } from './projects.js';
import { belongsTo, readOrder, toStrandedPayment } from './stranded.js';

/**
 * A merchant settles a stranded payment (stranded.ts) by an explicit, idempotent action: a credit (the order's
 * tickets to the order's player, the order completed when still open) or a refund recorded once it is on chain.
 * Each reads the project and the payment first, in one batch; 404 for a payment that is not the project's (the
 * same answer for another merchant's).
 */

/** The payment a credit or refund names (`item`, as read), when it is the project's to handle. */
function ownStranded(item: Record<string, unknown> | undefined, project: StoredProject, txDigest: string, eventSeq: string): StrandedPayment {
  if (!item || !belongsTo(item, project)) {
    throw paymentError('stranded.not_found', `tx_digest: project ${project.project_name} has no stranded payment ${txDigest}#${eventSeq}`);
  }
  return toStrandedPayment(item);
}

async function strandedOf(deps: PaymentsDeps, project: StoredProject, txDigest: string, eventSeq: string) {
  const [item] = await readItems(deps, [strandedKey(txDigest, eventSeq)]);
  return ownStranded(item, project, txDigest, eventSeq);
}

type StrandedTarget = Pick<z.infer<typeof StrandedCreditBody>, 'project_name' | 'tx_digest' | 'event_seq'>;

/**
 * What a credit or refund reads first, in one strongly consistent batch: the project (its address) and the payment.
 * stranded_credit declares it to the authorization layer, which reads it in its own batch (one request for both).
 */
export const strandedReads = (input: StrandedTarget) => [projectKey(input.project_name), strandedKey(input.tx_digest, input.event_seq)];

async function projectAndStranded(deps: PaymentsDeps, input: StrandedTarget): Promise<{ project: StoredProject; stranded: StrandedPayment }> {
  const [projectItem, item] = await readItems(deps, strandedReads(input));
  const project = storedProject(projectItem);
  if (!project) throw paymentError('project.not_found', `project_name: no project ${input.project_name}`);
  return { project, stranded: ownStranded(item, project, input.tx_digest, input.event_seq) };
}

/**
 * Credits a stranded payment: the order's tickets to the order's user, once (ledger ref
 * `stranded#<txDigest>#<eventSeq>`), and the order completed by it when it is still pending with no payment;
 * the stranded record turns credited in the same transaction. Crediting again answers the same record.
 * A payment naming no order has no one to credit (409: refund it); a refunded one is 409.
 */
export async function creditStranded(deps: PaymentsDeps, caller: TokenClaims, input: z.infer<typeof StrandedCreditBody>): Promise<StrandedPayment> {
  const { project, stranded: first } = await projectAndStranded(deps, input);
  const position = `${input.tx_digest}#${input.event_seq}`;
  // The payment as stored (read with the project for the first pass, afresh after): answered when credited,
  // refused when refunded or naming no order.
  const afresh = () => strandedOf(deps, project, input.tx_digest, input.event_seq);
  const checked = (stranded: StrandedPayment) => {
    if (stranded.status === StrandedStatus.credited) return stranded;
    if (stranded.status === StrandedStatus.refunded)
      throw paymentError('stranded.refunded', `tx_digest: payment ${position} was refunded (${String(stranded.refund_digest)})`);
    if (stranded.order_id === null) {
      throw paymentError('stranded.no_order', `tx_digest: payment ${position} names no order, so there is no one to credit; refund it`);
    }
    return stranded;
  };
  return retrying(
    async (attempt) => {
      const stranded = checked(attempt === 1 ? first : await afresh());
      if (stranded.status === StrandedStatus.credited) return stranded;
      const order = await readOrder(deps, stranded.order_id!, StoredOrder);
      if (!order) throw paymentError('stranded.order_gone', `tx_digest: the order ${String(stranded.order_id)} of payment ${position} is gone`);
      const refundInstead = () => playerDeleted('tx_digest', `: refund payment ${position} instead`);
      // A deletion keeps the player's orders under its pseudonym: no one is behind it to credit.
      if (isPseudonym(order.user_id)) throw refundInstead();
      const now = deps.now().toISOString();
      const items: TransactItem[] = [
        {
          Update: {
            TableName: deps.table,
            Key: strandedKey(input.tx_digest, input.event_seq),
            UpdateExpression: 'SET #status = :credited, credited_at = :now, resolved_by = :me, updated_at = :now',
            ConditionExpression: '#status = :stranded',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':credited': StrandedStatus.credited, ':stranded': StrandedStatus.stranded, ':now': now, ':me': caller.sub },
          },
        },
      ];
      const completes = order.status === OrderStatus.pending && order.payment_seen === undefined;
      if (completes) {
        // The order is still open and nothing else paid it: this payment completes it.
        items.push(
          orderPaidUpdate(
            deps.table,
            order,
            { txDigest: input.tx_digest, depositId: stranded.id, now },
            { expression: '#status = :pending AND attribute_not_exists(payment_seen)', also: 'payment_seen = :position', values: { ':position': position } },
          ),
        );
      }
      items.push(...creditItems(deps, { uid: order.user_id, projectName: order.project_name, level: order.level }, order.tickets, `stranded#${position}`));
      let failed: number[];
      try {
        failed = await transactOrFailedConditions(deps, items, `tx_digest: payment ${position} is being handled concurrently; retry`);
      } catch (error) {
        // Racing calls kept colliding: the next pass answers from the record if one of them credited it.
        if (!(error instanceof ConcurrentChange)) throw error;
        return AGAIN;
      }
      if (failed.length === 0) {
        return { ...stranded, status: StrandedStatus.credited, updated_at: now };
      }
      if (creditRefusedAsGone(items, failed)) throw refundInstead();
      // Credited or refunded meanwhile (answered from the record on the next pass), or the order changed.
      return AGAIN;
    },
    {
      attempts: 3,
      pause: false,
      // A last read answers a payment credited meanwhile (or refused since) before the 409.
      giveUp: async () => {
        const stranded = checked(await afresh());
        if (stranded.status === StrandedStatus.credited) return stranded;
        throw platformError('data.changed_concurrently', `tx_digest: payment ${position} changed concurrently; retry`);
      },
    },
  );
}

/**
 * Records that a stranded payment was refunded on chain by `refund_digest`, once. The refund is checked on
 * chain: the transaction must pay the payer (`fromer`) at least the amount in the payment's coin (any one
 * coin when the payment's coin is unknown); a refund transaction is recorded for one payment only. The same
 * digest again answers the same record; another digest, or a credited payment, is 409.
 */
export async function refundStranded(deps: PaymentsDeps, caller: TokenClaims, input: z.infer<typeof StrandedRefundBody>): Promise<StrandedPayment> {
  const { project, stranded } = await projectAndStranded(deps, input);
  const position = `${input.tx_digest}#${input.event_seq}`;
  const settled = answerSettled(stranded, input.refund_digest, position);
  if (settled) return settled;
  await verifyRefund(deps, stranded, input.refund_digest);

  const now = deps.now().toISOString();
  let failed: number[];
  try {
    failed = await transactOrFailedConditions(deps, [
      {
        Update: {
          TableName: deps.table,
          Key: strandedKey(input.tx_digest, input.event_seq),
          UpdateExpression: 'SET #status = :refunded, refund_digest = :refund, refunded_at = :now, resolved_by = :me, updated_at = :now',
          ConditionExpression: '#status = :stranded',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':refunded': StrandedStatus.refunded,
            ':stranded': StrandedStatus.stranded,
            ':refund': input.refund_digest,
            ':now': now,
            ':me': caller.sub,
          },
        },
      },
      {
        Put: {
          TableName: deps.table,
          Item: { ...refundUseKey(input.refund_digest), type: 'refund_use', payment: position, created_at: now },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
  } catch (error) {
    // Racing calls kept colliding: answer from the record if one of them recorded this refund.
    if (!(error instanceof ConcurrentChange)) throw error;
    const answer = answerSettled(await strandedOf(deps, project, input.tx_digest, input.event_seq), input.refund_digest, position);
    if (answer) return answer;
    throw error;
  }
  if (failed.length === 0) return { ...stranded, status: StrandedStatus.refunded, refund_digest: input.refund_digest, updated_at: now };
  const current = await strandedOf(deps, project, input.tx_digest, input.event_seq);
  const answer = answerSettled(current, input.refund_digest, position);
  if (answer) return answer;
  if (failed.includes(1))
    throw paymentError('stranded.refund_used', `refund_digest: transaction ${input.refund_digest} is recorded as the refund of another payment`);
  throw platformError('data.changed_concurrently', `tx_digest: payment ${position} changed concurrently; retry`);
}

/** The answer for a payment already credited or refunded (idempotent replay or 409); undefined while stranded. */
function answerSettled(item: StrandedPayment, refundDigest: string, position: string): StrandedPayment | undefined {
  if (item.status === StrandedStatus.credited)
    throw paymentError('stranded.credited', `tx_digest: payment ${position} was credited; it cannot be refunded too`);
  if (item.status !== StrandedStatus.refunded) return undefined;
  if (item.refund_digest === refundDigest) return item;
  throw paymentError('stranded.refunded', `tx_digest: payment ${position} was refunded by ${String(item.refund_digest)}`);
}

async function verifyRefund(deps: PaymentsDeps, stranded: StrandedPayment, digest: string) {
  if (!deps.chain) throw platformError('chain.unconfigured', 'refund_digest: the stage has no chain configured to check the refund on');
  const source = deps.chain.source;
  const changes = await readForRequest(() => source.balanceChanges(digest), 'refund_digest', 'chain: refund read failed', { digest });
  if (!changes) throw paymentError('stranded.refund_not_on_chain', `refund_digest: the chain has no transaction ${digest}`);
  const payer = stranded.fromer;
  const amount = BigInt(stranded.amount);
  const coin = stranded.coin_type;
  const received = new Map<string, bigint>();
  for (const change of changes) {
    if (change.owner === payer) received.set(change.coinType, (received.get(change.coinType) ?? 0n) + BigInt(change.amount));
  }
  const enough = coin === null ? [...received.values()].some((total) => total >= amount) : (received.get(coin) ?? 0n) >= amount;
  if (!enough) {
    throw paymentError(
      'stranded.refund_mismatch',
      `refund_digest: transaction ${digest} does not pay ${payer} ${String(amount)} base units of ${coin ?? 'the coin paid'}`,
    );
  }
}
