import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { toRecord } from '../payments/chain-payments.js';
import { VendorEventType, VendorPaymentEvent } from '../chain/models.js';
import { toAccountRecord } from '../identity/accounts.js';
import { userKey } from '../identity/keys.js';
import { objectOf } from '../shared/records.js';
import { projectKey } from '../access/keys.js';
import { storedProject } from '../payments/projects.js';
import { nextId } from '../platform/counters.js';
import type { PlatformDeps } from '../platform/deps.js';
import { AGAIN, retrying } from '../platform/retry.js';
import { ConcurrentChange, transactOrFailedConditions } from '../platform/transactions.js';
import { platformError } from '../platform/errors.js';
import { paymentError } from '../payments/errors.js';
import { goodsError } from './errors.js';
import type { TokenClaims } from '../platform/tokens.js';
import { creditItems, creditRefusedAsGone, playerDeleted } from '../tickets/balances.js';
import type { RewardBody } from './models.js';
import { readItems } from '../platform/batch.js';
import { fingerprintOf, sameRequest } from '../platform/idempotency.js';
import { rewardKey } from './keys.js';

/**
 * vendor_reward: a merchant's server pays a user a reward in tickets. The credit (ledger entry
 * `reward#<billNo>`) and a vendor payment event record (event_type 2) are one transaction, the record put on
 * condition that the bill is new, so a bill number pays once however often it is sent.
 * - "reward of a bill": pk `BILL#<billNo>`, sk `REWARD` (next to the bill's chain payments, `PAY#…`).
 * The record is not on chain: its cursor is `{eventSeq: '0', txDigest: ''}`. `fromer` is the paying merchant's
 * id as text (the reward comes from the merchant's account on the platform, not from a wallet); `toer` the
 * user's wallet address (the request's, else the account's).
 * The user must have an account (404 otherwise): value credited to an id nobody holds could be taken by whoever
 * registers that id first. The account is read with the round's other items (no request added) and not checked
 * again in the transaction: accounts are never deleted.
 */

/** What vendor_reward reads first (its first reads, core/http/operation.ts FirstReads, read with the caller's account state): project, the bill's reward, the user's account. */
export const rewardReads = (body: Pick<RewardBody, 'projectName' | 'billNo' | 'userId'>) => [
  projectKey(body.projectName),
  rewardKey(body.billNo),
  userKey(body.userId),
];

const ROUNDS = 5;

export async function payReward(deps: PlatformDeps, caller: TokenClaims, body: RewardBody): Promise<VendorPaymentEvent> {
  const request = {
    payer: caller.sub,
    userId: body.userId,
    projectName: body.projectName,
    level: body.level,
    amount: body.amount,
    walletAddress: body.walletAddress ?? null,
  };
  // Rewards stored before fingerprintOf hold the JSON of these values in this order.
  const earlier = () => JSON.stringify([request.payer, request.userId, request.projectName, request.level, request.amount, request.walletAddress]);
  // What a round depends on, in one request: the project (its owner, its merchant id), the bill's reward, and
  // the user's account (that it exists; its wallet address).
  const keys = rewardReads(body);
  return retrying(
    async () => {
      const [projectItem, rewardItem, account] = await readItems(deps, keys);
      // The bill's reward first: a retry answers the first answer whatever changed since.
      const stored = rewardItem && StoredReward.parse(rewardItem);
      if (stored) {
        if (!sameRequest(stored.request, request, earlier))
          throw goodsError('reward.bill_reused', `billNo: ${body.billNo} was already used for another reward`);
        return toRecord(stored);
      }
      const project = storedProject(projectItem);
      // The authorization layer checked the project is the caller's merchant's; it is read for its merchant id.
      if (!project) throw paymentError('project.not_found', `projectName: no project ${body.projectName}`);
      if (!account) throw goodsError('reward.no_account', `userId: no account ${body.userId}; a reward is paid to a user who has signed in`);

      const toer = body.walletAddress ?? toAccountRecord(account).wallet_address;
      const now = deps.now().toISOString();
      const record: VendorPaymentEvent = {
        id: await nextId(deps, 'payment_event'),
        bill_no: body.billNo,
        amount: String(body.amount),
        fromer: String(project.merchant_id),
        toer,
        event_type: VendorEventType.rewardPayout,
        cursor: { eventSeq: '0', txDigest: '' },
        created_at: now,
        updated_at: now,
      };
      const target = { uid: body.userId, projectName: body.projectName, level: body.level };
      // A transaction colliding with another is run again by the platform, then answered with this 409; a round
      // but the last reads again instead, and finds the reward when the colliding request was paying this bill.
      const busy = `billNo: ${body.billNo} is being paid concurrently; retry`;
      const items = [
        {
          Put: {
            TableName: deps.table,
            Item: { ...rewardKey(body.billNo), type: 'reward', ...record, accountId: caller.sub, request: fingerprintOf(request) },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...creditItems(deps, target, body.amount, `reward#${body.billNo}`),
      ];
      const failed = await transactOrFailedConditions(deps, items, busy);
      if (failed.length === 0) return record;
      if (creditRefusedAsGone(items, failed)) throw playerDeleted('userId');
      // The bill was paid meanwhile (the record and its ledger entry are written together), or a colliding request
      // is paying it (ConcurrentChange): the next round reads it, at once.
      return AGAIN;
    },
    {
      attempts: ROUNDS,
      pause: false,
      retryOn: (error) => error instanceof ConcurrentChange,
      // The last round's 409 when it kept colliding; else not reached: a round ends only when the reward exists,
      // and the next round then finds it.
      giveUp: (collided) => {
        throw collided ?? platformError('data.changed_concurrently', `billNo: ${body.billNo} is being paid concurrently; retry`);
      },
    },
  );
}

/** "the reward of a bill" (rewardKey): the contract's record with its payer (`accountId`) and request fingerprint. */
export const StoredReward = z.lazy(() => z.extend(objectOf(VendorPaymentEvent), { accountId: z.string(), request: z.string() }));

/** The stored reward of a bill. */
export async function findReward(deps: PlatformDeps, billNo: string) {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: rewardKey(billNo), ConsistentRead: true }));
  return out.Item && StoredReward.parse(out.Item);
}
